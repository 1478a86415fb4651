/**
 * The hotel's content (spec §7): its information, menus, facilities, promotions, news, attractions,
 * sister hotels and preferences. Mostly content reads, which the client keeps (decision 130).
 */
import * as v from "valibot";
import {
  FacilitySchema,
  HotelInfoSchema,
  MenuSchema,
  PreferencesSchema,
  PromotionSchema,
  PromotionTypeSchema,
  SisterHotelSchema,
} from "../schemas";
import type { ClientClass } from "./core";

/** The calls of the hotel's content. */
export function withContentCalls<TBase extends ClientClass>(Base: TBase) {
  return class ContentCalls extends Base {
    /** GET /api/hotel/info */
    hotelInfo() {
      return this.call(HotelInfoSchema, "GET", "/api/hotel/info", { query: this.hotel });
    }

    /** GET /api/custom/menu (an item that does not parse is null) */
    menu(menuCode = "main") {
      return this.call(MenuSchema, "GET", "/api/custom/menu", { query: { ...this.hotel, menu_code: menuCode } });
    }

    /** GET /api/facility/get_all (by priority) */
    facilities() {
      return this.call(v.array(FacilitySchema), "GET", "/api/facility/get_all", { query: this.hotel });
    }

    /** GET /api/promotion/all_types */
    promotionTypes(includeDeleted = false) {
      return this.call(v.array(PromotionTypeSchema), "GET", "/api/promotion/all_types", {
        query: { ...this.hotel, del: includeDeleted ? 1 : 0 },
      });
    }

    /** GET /api/promotion/info */
    promotion(promotionId: number) {
      return this.call(PromotionSchema, "GET", "/api/promotion/info", { query: { ...this.hotel, promotion_id: promotionId } });
    }

    /** GET /api/promotion/actives (newest public time first) */
    activePromotions(options: { limit?: number; indexOnly?: boolean } = {}) {
      return this.actives("/api/promotion/actives", options);
    }

    /** GET /api/announcement/actives: the hotel's news */
    activeAnnouncements(options: { limit?: number; indexOnly?: boolean } = {}) {
      return this.actives("/api/announcement/actives", options);
    }

    /** GET /api/attraction/actives */
    activeAttractions(options: { limit?: number; indexOnly?: boolean } = {}) {
      return this.actives("/api/attraction/actives", options);
    }

    private actives(path: string, { limit, indexOnly }: { limit?: number; indexOnly?: boolean }) {
      return this.call(v.array(PromotionSchema), "GET", path, {
        query: { ...this.hotel, limit, index_only: indexOnly ? 1 : undefined },
      });
    }

    /** GET /api/hotel/list_by_tag: sister hotels */
    hotelsByTag(tag?: string) {
      return this.call(v.array(SisterHotelSchema), "GET", "/api/hotel/list_by_tag", { query: { ...this.hotel, tag } });
    }

    /** GET {master}/hotels/preferences */
    preferences() {
      return this.call(PreferencesSchema, "GET", "{master}/hotels/preferences", { query: this.hotel });
    }
  };
}
