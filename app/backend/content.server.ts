import { ok } from "./http.server";
import { presentHotelInfo, requireHotel } from "./hotels.server";
import type { BackendRoute } from "./router.server";

/** Hotel content calls of spec §7. */
export const contentRoutes: BackendRoute[] = [
  {
    method: "GET",
    path: "/api/hotel/info",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      return ok(presentHotelInfo(hotel, ctx.lang));
    },
  },
];
