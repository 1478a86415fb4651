/**
 * Order creation reads a bounded number of rows whatever the hotel's history (issue 26): D1 bills
 * per row read, and a check that scanned every order of the hotel made each new order slower than
 * the last. The rows are summed from D1's own `meta.rows_read` of every statement the back end runs.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { handleBackendRequest } from "~/backend/router.server";
import { composePending } from "~/backend/mail/compose.server";
import { createLogger } from "~/platform/log.server";
import { BOOKER, fixtureHotel, hotelRefs, loadHotel, type HotelRefs } from "./helpers";

const HOST = "order-rows.localhost";
const today = todayIn("Asia/Taipei");
let hotel: HotelRefs;

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      (file.hotel as Record<string, unknown>).payment_deadlines = { max_unpaid_per_guest: 100 };
    }),
  );
  hotel = await hotelRefs(HOST);
});

/** The D1 binding, summing the rows each statement read (`first` is answered through `all`, which reports them). */
function rowCountingDb(db: D1Database) {
  let rows = 0;
  const originals = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...values: unknown[]) => wrap(target.bind(...values));
        if (property === "first") {
          return async (column?: string) => {
            const result = await target.all<Record<string, unknown>>();
            rows += result.meta.rows_read;
            const row = result.results[0] ?? null;
            return column ? (row?.[column] ?? null) : row;
          };
        }
        if (property === "all" || property === "run") {
          return async () => {
            const result = await target[property]();
            rows += result.meta.rows_read;
            return result;
          };
        }
        const value = Reflect.get(target, property) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    originals.set(proxy, statement);
    return proxy;
  };
  const counted = new Proxy(db, {
    get(target, property) {
      if (property === "prepare") return (query: string) => wrap(target.prepare(query));
      if (property === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const results = await target.batch(statements.map((statement) => originals.get(statement) ?? statement));
          for (const result of results) rows += result.meta.rows_read;
          return results;
        };
      }
      const value = Reflect.get(target, property) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: counted, rows: () => rows };
}

/** One new guest's one-night order, through the back end on the counting binding; the rows it read. */
async function rowsForOneOrder(seed: number): Promise<number> {
  const { db, rows } = rowCountingDb(env.DB);
  const checkIn = addDays(today, 20 + (seed % 40));
  const response = await handleBackendRequest(
    new Request(`http://${HOST}/api/ota/order/personal-new?lang=en-US`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        domain: HOST,
        ...BOOKER,
        booker_email: `Guest.${seed}@Example.com`,
        booker_phone: `+886 9${String(10_000_000 + seed).padStart(8, "0")}`,
        check_in_day: checkIn,
        check_out_day: addDays(checkIn, 1),
        pay_way: "remittance",
        payment_vendor: 8,
        orders: [{ room_class_id: hotel.room, proposal_id: hotel.plan, num: 1 }],
        adults_count: 2,
      }),
    }),
    { db, signingSecret: env.SESSION_SECRET, clientIp: `203.0.113.${seed % 250}` },
  );
  expect(response.status, await response.clone().text()).toBe(201);
  return rows();
}

/** `count` more orders in the hotel's history (copies of one order, each another guest's), written at once. */
async function addHistory(count: number, from: number) {
  const columns = (
    await env.DB.prepare("SELECT name FROM pragma_table_info('orders') WHERE name != 'id'").all<{ name: string }>()
  ).results.map(({ name }) => name);
  const changed: Record<string, string> = {
    order_doc: `'HS' || printf('%08d', ?2 + n) || '-HIST'`,
    booker_email: `'past' || (?2 + n) || '@example.com'`,
    email_key: `'past' || (?2 + n) || '@example.com'`,
    phone_key: `'+88691' || printf('%07d', ?2 + n)`,
    caller_key: `'198.51.100.' || ((?2 + n) % 250)`,
    idempotency_key: `'hist-' || (?2 + n)`,
  };
  await env.DB.prepare(
    `WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n + 1 < ?3)
     INSERT INTO orders (${columns.join(", ")})
     SELECT ${columns.map((name) => changed[name] ?? name).join(", ")} FROM seq, (SELECT * FROM orders WHERE hotel_id = ?1 ORDER BY id LIMIT 1)`,
  )
    .bind(hotel.id, from, count)
    .run();
  // Each past order's confirmation, rendered and still queued, as the outbox keeps it when no mail
  // transport is set (and as it is while a transport is down): every check of the outbox has them
  // to wade through.
  await env.DB.prepare(
    `INSERT INTO mail_outbox (hotel_id, order_id, kind, lang, to_address, site_origin, subject, text_body, html_body)
     SELECT hotel_id, id, 'order_confirmation', 'en-US', booker_email, 'http://order-rows.localhost', 'Your booking', 'text', '<p>html</p>'
       FROM orders WHERE hotel_id = ?1 AND order_doc LIKE 'HS%-HIST' AND id NOT IN (SELECT order_id FROM mail_outbox WHERE order_id IS NOT NULL)`,
  )
    .bind(hotel.id)
    .run();
}

describe("order creation", () => {
  it("reads as many rows with 2,000 past orders and their emails as with 10", async () => {
    for (let seed = 0; seed < 10; seed++) await rowsForOneOrder(seed);
    const early = await rowsForOneOrder(10);
    await addHistory(2_000, 100_000);
    const total = await env.DB.prepare("SELECT COUNT(*) AS n FROM orders WHERE hotel_id = ?").bind(hotel.id).first<number>("n");
    expect(total).toBeGreaterThan(2_000);
    const late = await rowsForOneOrder(11);
    // The same rows whatever the history: a few more at most (one more guest's night in the same room).
    expect(late, `rows read: ${early} with 11 orders, ${late} with ${total}`).toBeLessThanOrEqual(early + 20);
  });

  it("is followed by composing its emails, which reads as many rows with 2,000 messages in the outbox as with a few", async () => {
    const deps = { db: env.DB, signingSecret: env.SESSION_SECRET, now: new Date(), log: createLogger("order-rows"), assets: undefined };
    while ((await composePending(deps)) > 0); // the earlier tests' messages
    const composeRows = async (seed: number) => {
      await rowsForOneOrder(seed);
      const { db, rows } = rowCountingDb(env.DB);
      const composed = await composePending({ ...deps, db });
      expect(composed, "the new order's confirmation was composed").toBeGreaterThan(0);
      return rows();
    };
    await addHistory(5, 200_000);
    const early = await composeRows(20);
    await addHistory(2_000, 300_000);
    const messages = await env.DB.prepare("SELECT COUNT(*) AS n FROM mail_outbox WHERE hotel_id = ?").bind(hotel.id).first<number>("n");
    expect(messages).toBeGreaterThan(2_000);
    const late = await composeRows(21);
    expect(late, `rows read: ${early} with a few messages, ${late} with ${messages}`).toBeLessThanOrEqual(early + 20);
  });
});
