/**
 * The client keeps what it read from a content answer, by the answer's very text (decision 130):
 * the same menu read again is not parsed and checked again, a changed menu reads as changed at
 * once, what is kept cannot be changed by a caller, and nothing but the contract's content reads
 * is kept. The back end here is a stand-in transport whose answers the test sets; the built-in
 * back end and the edge cache are exercised end to end in test/worker/edge-cache.test.ts.
 */
import { describe, expect, it } from "vitest";
import { HotelApi, HotelApiError } from "~/contract/client";

const item = (id: number, label: string) => ({ id, position: id, type: "link", label, url: `/page/${id}`, new_tab: false });
const envelope = (data: unknown) => JSON.stringify({ success: true, msg: { code: "ok", message: "" }, data });

/** A client whose back end answers each path with what `answers` holds at the time of the call. */
function client(answers: Map<string, { status: number; body: string }>) {
  const asked: string[] = [];
  const transport = async (request: Request) => {
    const path = new URL(request.url).pathname;
    asked.push(path);
    const answer = answers.get(path) ?? { status: 404, body: "not found" };
    return new Response(answer.body, { status: answer.status, headers: { "content-type": "application/json" } });
  };
  // A host of its own: kept answers are per instance, and another test's menu must not be this one's.
  const api = new HotelApi({
    transport,
    origin: "https://api.hotel.example",
    domain: `kept-${crypto.randomUUID()}.example`,
    lang: "en-US",
  });
  return { api, asked };
}

describe("content answers kept as read", () => {
  it("reads the same menu answer once: the next call gets the very same value, still asking the back end", async () => {
    const answers = new Map([["/api/custom/menu", { status: 200, body: envelope([item(1, "Rooms"), item(2, "Dining")]) }]]);
    const { api, asked } = client(answers);
    const first = await api.menu();
    const second = await api.menu();
    expect(second).toBe(first);
    expect(second.map((entry) => entry?.label)).toEqual(["Rooms", "Dining"]);
    // Freshness stays the transport's (the edge cache's) business: every call still asks it.
    expect(asked).toEqual(["/api/custom/menu", "/api/custom/menu"]);
  });

  it("reads a changed answer as changed on the very next call", async () => {
    const answers = new Map([["/api/custom/menu", { status: 200, body: envelope([item(1, "Rooms")]) }]]);
    const { api } = client(answers);
    expect((await api.menu()).map((entry) => entry?.label)).toEqual(["Rooms"]);
    answers.set("/api/custom/menu", { status: 200, body: envelope([item(1, "Suites"), item(3, "Spa")]) });
    expect((await api.menu()).map((entry) => entry?.label)).toEqual(["Suites", "Spa"]);
  });

  it("hands out a kept value that no caller can change", async () => {
    const answers = new Map([["/api/custom/menu", { status: 200, body: envelope([item(1, "Rooms")]) }]]);
    const { api } = client(answers);
    const menu = await api.menu();
    expect(() => (menu as unknown as unknown[]).push(item(9, "Injected"))).toThrow(TypeError);
    expect(() => {
      (menu[0] as { label: string }).label = "Changed";
    }).toThrow(TypeError);
    expect((await api.menu()).map((entry) => entry?.label)).toEqual(["Rooms"]);
  });

  it("keeps nothing of a refusal: the same text refused again is refused again", async () => {
    const refusal = JSON.stringify({ success: false, msg: { code: "hotel_not_found", message: "No such hotel" }, data: null });
    const answers = new Map([["/api/custom/menu", { status: 200, body: refusal }]]);
    const { api } = client(answers);
    await expect(api.menu()).rejects.toBeInstanceOf(HotelApiError);
    await expect(api.menu()).rejects.toBeInstanceOf(HotelApiError);
  });

  it("keeps nothing but content reads: a search answer is read afresh each time, and can be sorted by its caller", async () => {
    const search = { start_date: "2026-12-01", end_date: "2026-12-02", nights: 1, rooms: [] };
    const answers = new Map([["/api/ota/room/empty-by-date", { status: 200, body: envelope(search) }]]);
    const { api } = client(answers);
    const first = await api.search("2026-12-01", "2026-12-02");
    const second = await api.search("2026-12-01", "2026-12-02");
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(Object.isFrozen(second) || Object.isFrozen(second.rooms)).toBe(false);
  });
});
