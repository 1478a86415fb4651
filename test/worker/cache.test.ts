import { describe, expect, it } from "vitest";
import { getHotelInfo, HOTEL_CACHE_POLICY } from "~/platform/edge/hotel-cache.server";
import type { HotelInfo } from "~/contract/schemas";
import { HotelApiError } from "~/contract/client";

const hotel = (name: string) => ({ hotel_name: name }) as unknown as HotelInfo;

describe("hotel info at the edge (Cache API)", () => {
  it("is served from the cache while fresh, per domain and language", async () => {
    let loads = 0;
    const load = async () => hotel(`v${++loads}`);
    const pending: Promise<unknown>[] = [];
    const now = Date.now();
    expect((await getHotelInfo("cache-a.localhost", "en-US", load, (p) => pending.push(p), now))?.hotel_name).toBe("v1");
    await Promise.all(pending);
    expect((await getHotelInfo("cache-a.localhost", "en-US", load, (p) => pending.push(p), now + 1_000))?.hotel_name).toBe("v1");
    expect(loads).toBe(1);
    // Another language is its own entry.
    expect((await getHotelInfo("cache-a.localhost", "ja-JP", load, (p) => pending.push(p), now + 1_000))?.hotel_name).toBe("v2");
  });

  it("serves a stale copy and refreshes it in the background", async () => {
    let loads = 0;
    const load = async () => hotel(`v${++loads}`);
    const pending: Promise<unknown>[] = [];
    const now = Date.now();
    await getHotelInfo("cache-b.localhost", "en-US", load, (p) => pending.push(p), now);
    await Promise.all(pending.splice(0));
    const stale = now + (HOTEL_CACHE_POLICY.FRESH_SECONDS + 1) * 1000;
    expect((await getHotelInfo("cache-b.localhost", "en-US", load, (p) => pending.push(p), stale))?.hotel_name).toBe("v1");
    expect(pending).toHaveLength(1);
    await Promise.all(pending.splice(0));
    expect(loads).toBe(2);
    expect((await getHotelInfo("cache-b.localhost", "en-US", load, (p) => pending.push(p), stale + 1))?.hotel_name).toBe("v2");
  });

  it("remembers that a domain has no hotel, and does not cache failures", async () => {
    let loads = 0;
    const missing = async () => {
      loads++;
      throw new HotelApiError(404, "hotel_not_found", "No hotel");
    };
    const pending: Promise<unknown>[] = [];
    expect(await getHotelInfo("cache-none.localhost", "en-US", missing, (p) => pending.push(p))).toBeNull();
    await Promise.all(pending.splice(0));
    expect(await getHotelInfo("cache-none.localhost", "en-US", missing, (p) => pending.push(p))).toBeNull();
    expect(loads).toBe(1);
    const broken = async (): Promise<HotelInfo> => {
      throw new HotelApiError(502, "bad_response", "down");
    };
    await expect(getHotelInfo("cache-down.localhost", "en-US", broken, (p) => pending.push(p))).rejects.toThrow("down");
  });

  it("serves a copy older than the stale window when the back end cannot answer (stale if error)", async () => {
    const pending: Promise<unknown>[] = [];
    const now = Date.now();
    await getHotelInfo(
      "cache-sie.localhost",
      "en-US",
      async () => hotel("seen"),
      (p) => pending.push(p),
      now,
    );
    await Promise.all(pending.splice(0));
    const down = async (): Promise<HotelInfo> => {
      throw new HotelApiError(503, "backend_unreachable", "down");
    };
    const later = now + (HOTEL_CACHE_POLICY.STALE_SECONDS + 1) * 1000;
    expect((await getHotelInfo("cache-sie.localhost", "en-US", down, (p) => pending.push(p), later))?.hotel_name).toBe("seen");
    // A refusal is not an outage: it is not hidden behind the old copy.
    const refused = async (): Promise<HotelInfo> => {
      throw new HotelApiError(400, "bad_request", "refused");
    };
    await expect(getHotelInfo("cache-sie.localhost", "en-US", refused, (p) => pending.push(p), later)).rejects.toThrow("refused");
    // Past the stale-if-error window the copy is gone: the outage shows.
    const muchLater = now + (HOTEL_CACHE_POLICY.STALE_IF_ERROR_SECONDS + 1) * 1000;
    await expect(getHotelInfo("cache-sie.localhost", "en-US", down, (p) => pending.push(p), muchLater)).rejects.toThrow("down");
  });
});
