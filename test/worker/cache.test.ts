import { describe, expect, it } from "vitest";
import { getHotelInfo, HOTEL_CACHE_POLICY } from "~/hotel-cache.server";
import type { HotelInfo } from "~/hotel-api/schemas";
import { HotelApiError } from "~/hotel-api/client";

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
});
