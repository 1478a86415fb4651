/** Hotel content calls of spec §7. */
import * as v from "valibot";
import { todayIn } from "~/domain/dates";
import { isLanguage } from "~/i18n/languages";
import { ApiError, ok, parseInput, queryObject } from "~/backend/http.server";
import { mainLanguage, presentHotelInfo, requireHotel, type HotelRow } from "~/backend/hotels/hotels.server";
import { parseJson, pickText, presentImage, presentImages, type LocalizedText, type StoredImage } from "~/backend/localize";
import type { BackendContext, BackendRoute } from "~/backend/route";

interface PromotionRow {
  id: number;
  hotel_id: number;
  category: "promotion" | "announcement" | "attraction";
  promotion_key: string;
  promotion_type_id: number | null;
  title: string;
  sub_title: string;
  main_image: string;
  sub_image: string;
  detail_foreword: string;
  detail_info: string;
  begin_date: string | null;
  end_date: string | null;
  public_at: string;
  checkin_begin: string | null;
  checkin_end: string | null;
  support_room_type: string;
  show_in_index: number;
  active: number;
  priority: number;
  banner_info: string;
  topic_key: string | null;
}

function presentPromotion(row: PromotionRow, hotel: HotelRow, ctx: BackendContext) {
  const main = mainLanguage(hotel);
  const text = (column: string) => pickText(parseJson<LocalizedText>(column, {}), ctx.lang, main);
  const banner = parseJson<{ img?: string; alt?: LocalizedText; link?: string }>(row.banner_info, {});
  return {
    promotion_id: row.id,
    category: row.category,
    promotion_title: text(row.title),
    sub_title: text(row.sub_title),
    promotion_type: row.promotion_type_id,
    topic_key: row.topic_key ?? "",
    main_image_path: presentImage(parseJson<StoredImage | null>(row.main_image, null), ctx.lang, main),
    sub_image_path: presentImage(parseJson<StoredImage | null>(row.sub_image, null), ctx.lang, main),
    detail_foreword: text(row.detail_foreword),
    detail_info_path: text(row.detail_info),
    begin: row.begin_date,
    end: row.end_date,
    public_time: row.public_at,
    checkin_begin: row.checkin_begin,
    checkin_end: row.checkin_end,
    support_room_type: parseJson<string[]>(row.support_room_type, []),
    show_in_index: row.show_in_index === 1,
    active: row.active === 1,
    priority: row.priority,
    banner_info: banner.img ? { img: banner.img, alt: pickText(banner.alt, ctx.lang, main), link: banner.link ?? "" } : null,
  };
}

const SELECT_PROMOTION = `SELECT p.*, t.topic_key FROM promotions p LEFT JOIN promotion_types t ON t.id = p.promotion_type_id`;

/** Active items of a category: public already, not ended, newest public time first (spec §9). */
function activesRoute(path: string, category: PromotionRow["category"]): BackendRoute {
  const Query = v.object({
    domain: v.string(),
    limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,3}$/), v.transform(Number), v.minValue(1), v.maxValue(100))),
    index_only: v.optional(v.picklist(["0", "1"])),
  });
  return {
    method: "GET",
    path,
    handler: async (ctx) => {
      const query = parseInput(Query, queryObject(ctx.url));
      const hotel = await requireHotel(ctx.db, query.domain);
      const today = todayIn(hotel.time_zone, ctx.now);
      const { results } = await ctx.db
        .prepare(
          `${SELECT_PROMOTION}
           WHERE p.hotel_id = ?1 AND p.category = ?2 AND p.active = 1 AND p.public_at <= ?3
             AND (p.end_date IS NULL OR p.end_date >= ?3) AND (?4 = 0 OR p.show_in_index = 1)
           ORDER BY p.public_at DESC, p.priority ASC, p.id DESC LIMIT ?5`,
        )
        .bind(hotel.id, category, today, query.index_only === "1" ? 1 : 0, query.limit ?? 100)
        .all<PromotionRow>();
      return ok(results.map((row) => presentPromotion(row, hotel, ctx)));
    },
  };
}

export const contentRoutes: BackendRoute[] = [
  {
    method: "GET",
    path: "/api/hotel/info",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      return ok(presentHotelInfo(hotel, ctx.lang, { testGateway: ctx.testGateway }));
    },
  },
  {
    method: "GET",
    path: "/api/custom/menu",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      const menuCode = ctx.url.searchParams.get("menu_code") || "main";
      const main = mainLanguage(hotel);
      const { results } = await ctx.db
        .prepare("SELECT * FROM menu_items WHERE hotel_id = ? AND menu_code = ? ORDER BY position")
        .bind(hotel.id, menuCode)
        .all<{ id: number; position: number; item_type: string; label: string; url: string; new_tab: number }>();
      // Items are passed on as stored: the site decides how to show a type it does not know (spec §8).
      return ok(
        results.map((item) => ({
          id: item.id,
          position: item.position,
          type: item.item_type,
          label: pickText(parseJson<LocalizedText>(item.label, {}), ctx.lang, main),
          url: item.url,
          new_tab: item.new_tab === 1,
        })),
      );
    },
  },
  {
    method: "GET",
    path: "/api/facility/get_all",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      const main = mainLanguage(hotel);
      const { results } = await ctx.db
        .prepare("SELECT * FROM facilities WHERE hotel_id = ? ORDER BY priority ASC, id ASC")
        .bind(hotel.id)
        .all<{
          id: number;
          facilities_key: string;
          title: string;
          index_introduction: string;
          introduction: string;
          floor: string;
          main_image: string;
          pictures: string;
          priority: number;
        }>();
      const text = (column: string) => pickText(parseJson<LocalizedText>(column, {}), ctx.lang, main);
      return ok(
        results.map((row) => ({
          id: row.id,
          facilities_key: row.facilities_key,
          facilities_title: text(row.title),
          index_introduction: text(row.index_introduction),
          introduction: text(row.introduction),
          floor: row.floor,
          main_image_path: presentImage(parseJson<StoredImage | null>(row.main_image, null), ctx.lang, main),
          picture_path_array: presentImages(parseJson<StoredImage[]>(row.pictures, []), ctx.lang, main),
          priority: row.priority,
        })),
      );
    },
  },
  {
    method: "GET",
    path: "/api/promotion/all_types",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      const withDeleted = ctx.url.searchParams.get("del") === "1";
      const main = mainLanguage(hotel);
      const { results } = await ctx.db
        .prepare("SELECT * FROM promotion_types WHERE hotel_id = ? AND (? = 1 OR deleted = 0) ORDER BY id")
        .bind(hotel.id, withDeleted ? 1 : 0)
        .all<{ id: number; topic_key: string; topic_detail: string; deleted: number }>();
      return ok(
        results.map((row) => ({
          promotion_type_id: row.id,
          topic_key: row.topic_key,
          topic_detail: pickText(parseJson<LocalizedText>(row.topic_detail, {}), ctx.lang, main),
          deleted: row.deleted === 1,
        })),
      );
    },
  },
  {
    method: "GET",
    path: "/api/promotion/info",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      const id = ctx.url.searchParams.get("promotion_id") ?? "";
      if (!/^\d{1,9}$/.test(id)) throw new ApiError(400, "invalid_field", { field: "promotion_id" }, "promotion_id");
      // Published items only: not before their public time (an ended promotion stays readable).
      const row = await ctx.db
        .prepare(`${SELECT_PROMOTION} WHERE p.id = ? AND p.hotel_id = ? AND p.active = 1 AND p.public_at <= ?`)
        .bind(Number(id), hotel.id, todayIn(hotel.time_zone, ctx.now))
        .first<PromotionRow>();
      if (!row) throw new ApiError(404, "promotion_not_found");
      return ok(presentPromotion(row, hotel, ctx));
    },
  },
  activesRoute("/api/promotion/actives", "promotion"),
  activesRoute("/api/announcement/actives", "announcement"),
  activesRoute("/api/attraction/actives", "attraction"),
  {
    method: "GET",
    path: "/api/hotel/list_by_tag",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      const tag = ctx.url.searchParams.get("tag");
      const tags = tag ? [tag] : parseJson<string[]>(hotel.tags, []);
      if (tags.length === 0) return ok([]);
      // Sister hotels sharing a tag: public facts only.
      const { results } = await ctx.db
        .prepare(
          `SELECT h.domain, h.hotel_name, h.kind, h.main_lang, h.tags, h.icon_main FROM hotels h
           WHERE h.status = 1 AND h.website_exist = 1
             AND EXISTS (SELECT 1 FROM json_each(h.tags) t WHERE t.value IN (SELECT value FROM json_each(?)))
           ORDER BY h.id`,
        )
        .bind(JSON.stringify(tags))
        .all<{ domain: string; hotel_name: string; kind: number; main_lang: string; tags: string; icon_main: string }>();
      return ok(
        results.map((row) => ({
          domain: row.domain,
          hotel_name: pickText(parseJson<LocalizedText>(row.hotel_name, {}), ctx.lang, isLanguage(row.main_lang) ? row.main_lang : "zh-TW"),
          kind: row.kind,
          tags: parseJson<string[]>(row.tags, []),
          icon: row.icon_main,
        })),
      );
    },
  },
  {
    method: "GET",
    path: "/master/hotels/preferences",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      // The operator's preferences first: the hotel's own facts cannot be overwritten by them.
      return ok({
        ...parseJson<Record<string, unknown>>(hotel.preferences, {}),
        hotel_id: hotel.id,
        domain: hotel.domain,
        deposit_type: hotel.deposit_type,
        deposit_percent: hotel.deposit_percent,
        support_client_cancel: hotel.support_client_cancel === 1,
        payment_list: parseJson<unknown[]>(hotel.payment_list, []),
      });
    },
  },
];
