import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fixtureHotel, loadHotel } from "./helpers";

describe("D1 migrations", () => {
  it("create every table of the data model on an empty database", async () => {
    const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all<{
      name: string;
    }>();
    const tables = results.map((row: { name: string }) => row.name);
    for (const table of [
      "hotels",
      "menu_items",
      "room_classes",
      "rate_plans",
      "rate_plan_rooms",
      "room_nights",
      "plan_nights",
      "promotion_types",
      "promotions",
      "facilities",
      "coupons",
      "members",
      "orders",
      "order_lines",
      "order_nights",
      "payments",
      "cancellations",
      "point_ledger",
    ]) {
      expect(tables).toContain(table);
    }
  });

  it("refuse to book more rooms than a night has, and refuse negative points", async () => {
    await loadHotel(fixtureHotel("guard.localhost"));
    const room = await env.DB.prepare(
      "SELECT rc.id, rn.night, rn.capacity FROM room_classes rc JOIN room_nights rn ON rn.room_class_id = rc.id JOIN hotels h ON h.id = rc.hotel_id WHERE h.domain = 'guard.localhost' AND rn.capacity = 3 LIMIT 1",
    ).first<{ id: number; night: string; capacity: number }>();
    expect(room?.capacity).toBe(3);
    await expect(
      env.DB.prepare("UPDATE room_nights SET booked = 4 WHERE room_class_id = ? AND night = ?").bind(room?.id, room?.night).run(),
    ).rejects.toThrow(/CHECK constraint failed/);
    await expect(
      env.DB.prepare("UPDATE room_nights SET booked = -1 WHERE room_class_id = ? AND night = ?").bind(room?.id, room?.night).run(),
    ).rejects.toThrow(/CHECK constraint failed/);
    const hotel = await env.DB.prepare("SELECT id FROM hotels WHERE domain = 'guard.localhost'").first<{ id: number }>();
    await expect(
      env.DB.prepare("INSERT INTO members (hotel_id, email, points) VALUES (?, 'x@example.com', -5)").bind(hotel?.id).run(),
    ).rejects.toThrow(/CHECK constraint failed/);
  });

  it("keep one order per idempotency key", async () => {
    const statement = (doc: string) =>
      env.DB.prepare(
        "INSERT INTO orders (hotel_id, order_doc, idempotency_key, request_hash, booker_name, booker_phone, booker_email, check_in_day, check_out_day, room_price, total_price, pay_amount) VALUES ((SELECT id FROM hotels WHERE domain = 'guard.localhost'), ?, 'same-key', 'h', 'A', '1', 'a@example.com', '2030-01-01', '2030-01-02', 1, 1, 1)",
      ).bind(doc);
    await statement("DOC-1").run();
    await expect(statement("DOC-2").run()).rejects.toThrow(/UNIQUE constraint failed/);
  });
});
