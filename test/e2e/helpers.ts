import { expect, test, type Page } from "@playwright/test";

/**
 * The port of this worker's own server: PORT for the first browser worker, PORT + 1 for the second
 * (playwright.config.ts starts one server per worker, each with its own database).
 */
export const PORT = Number(process.env.PORT ?? 8788) + Number(process.env.TEST_PARALLEL_INDEX ?? 0);

/** The demo hotels as a browser reaches them: <name>.localhost resolves to this machine. */

export function hotelUrl(name: string | null, path = "/"): string {
  return `http://${name ? `${name}.` : ""}localhost:${PORT}${path}`;
}

/**
 * GET from the Node side (which does not resolve *.localhost): connect to 127.0.0.1 and send the Host.
 * Each call opens its own connection (`agent: false`): Node's global agent keeps sockets alive, and one
 * the server has just closed as idle is reused and fails with "socket hang up".
 */
export async function fetchText(
  name: string | null,
  path: string,
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  const { request } = await import("node:http");
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: PORT, path, agent: false, headers: { host: `${name ? `${name}.` : ""}localhost:${PORT}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** A JSON call to the Worker's built-in back end from the Node side, as another client would make it. */
export async function apiCall<T = unknown>(method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const { request } = await import("node:http");
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: PORT,
        path,
        method,
        agent: false,
        headers: {
          host: `localhost:${PORT}`,
          ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString("utf8")) as T }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** The date `offset` days from today in Taipei (the demo hotels' zone), as YYYY-MM-DD. */
export function taipeiDay(offset: number): string {
  return new Date(Date.now() + 8 * 3600_000 + offset * 86_400_000).toISOString().slice(0, 10);
}

interface DemoRoom {
  room_class_id: number;
  room_class_name: string;
  price_set: { proposal_id: number; proposal_name: string; rate_plan_code: string; price: number }[];
}

/**
 * An order of one Taipei room on its BAR plan for one night, placed straight through the back end as
 * the checkout places it; `more` adds to the order's payload (its extras, say).
 */
export async function placeOrder(payWay: "credit" | "remittance", vendor: number, offset: number, more: Record<string, unknown> = {}) {
  const start = taipeiDay(offset);
  const end = taipeiDay(offset + 1);
  const rooms = (
    await apiCall<{ data: { rooms: DemoRoom[] } }>(
      "GET",
      `/api/ota/room/empty-by-date?domain=taipei.localhost&start_date=${start}&end_date=${end}&lang=en-US`,
    )
  ).json.data.rooms;
  const room = rooms.find((candidate) => candidate.price_set.some((plan) => plan.rate_plan_code === "BAR"))!;
  const plan = room.price_set.find((candidate) => candidate.rate_plan_code === "BAR")!;
  const created = await apiCall<{ data: { order_doc: string; redirect_path: string; order: { valid_hash: string; cancel_hash: string } } }>(
    "POST",
    "/api/ota/order/personal-new?lang=en-US",
    {
      domain: "taipei.localhost",
      booker_first_name: "Mei",
      booker_last_name: "Lin",
      booker_phone: "0912345678",
      // The demo city hotel lets one guest (mei+N@example.com is one mailbox) hold 100 unpaid orders (decisions 032, 072).
      booker_email: `mei+${offset}@example.com`,
      booking_from: "HXA",
      check_in_day: start,
      check_out_day: end,
      pay_way: payWay,
      payment_vendor: vendor,
      pay_option: "all",
      orders: [{ room_class_id: room.room_class_id, proposal_id: plan.proposal_id, num: 1, occupant_name: "Mei Lin" }],
      adults_count: 2,
      children_count: 0,
      ...more,
    },
  );
  expect(created.status).toBe(201);
  return { ...created.json.data, room, plan };
}

/**
 * A guest's booking of the first Taipei room for one night, through the booking page and the checkout
 * as a guest clicks them (with or without JavaScript), paid the way `payment` names ("vendor:method";
 * bank transfer unless told). Answers the booking number from the receipt's address.
 */
export async function bookTaipeiRoom(
  page: Page,
  options: {
    prefix: string;
    javaScriptEnabled: boolean;
    offset: number;
    email: string;
    lastName?: string;
    firstName?: string;
    payment?: string;
  },
): Promise<string> {
  const { prefix, javaScriptEnabled, offset, email } = options;
  await page.goto(hotelUrl("taipei", `${prefix}/hxa/booking?start=${taipeiDay(offset)}&end=${taipeiDay(offset + 1)}`));
  if (javaScriptEnabled) await waitForHydration(page);
  await page.locator(".booking-results > .booking-room li.plan").first().locator(".add-form button[type=submit]").click();
  await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
  await page.locator(".booking-cart a.button").click();
  await expect(page).toHaveURL(/\/hxa\/checkout\?/);
  if (javaScriptEnabled) await waitForHydration(page);
  await page.locator("#booker_last_name").fill(options.lastName ?? "林");
  await page.locator("#booker_first_name").fill(options.firstName ?? "喆");
  await page.locator("#booker_phone").fill("0912345678");
  await page.locator("#booker_email").fill(email);
  await page.locator(`input[name="payment"][value="${options.payment ?? "8:remittance"}"]`).check();
  await page.locator('button[name="intent"][value="order"]').click();
  await expect(page).toHaveURL(/\/redirect\/receipt\/PT\d{6}-[A-Z0-9]{6}\?valid_hash=/);
  return /\/receipt\/([^?]+)/.exec(page.url())?.[1] ?? "";
}

/** Lakeside (30 % deposit): one room in the cart, the checkout open, the booker filled in, card chosen. */
/** A Taiwanese mobile number of its own for each test guest: holds count one guest by phone as by email. */
export function guestPhone(seed: number): string {
  return `09${String(20_000_000 + seed).padStart(8, "0")}`;
}

export async function lakesideCheckout(page: Page, javaScriptEnabled: boolean, offset: number, email: string) {
  await page.goto(hotelUrl("lakeside", `/en-US/hxa/booking?start=${taipeiDay(offset)}&end=${taipeiDay(offset + 2)}`));
  await page.locator(".add-form button[type=submit]").first().click();
  await page.getByRole("link", { name: "Continue to checkout" }).click();
  await expect(page.locator(".checkout-line")).toHaveCount(1);
  if (javaScriptEnabled) await waitForHydration(page);
  await page.locator("#booker_last_name").fill("Lin");
  await page.locator("#booker_first_name").fill("Mei");
  // A guest of their own: unpaid holds count by phone too (decision 071), and lakeside keeps the default limits.
  await page.locator("#booker_phone").fill(guestPhone(offset));
  await page.locator("#booker_email").fill(email);
  await page.locator("#occupant_name_0").fill("Mei Lin");
  await page.locator('input[name="payment"][value="1:credit"]').check();
}

/**
 * Waits until the page's JavaScript has hydrated it (the root marks `<html data-hydrated>`). Hydration
 * waits for the page's load event (decision 046), which a busy machine delays well past Playwright's
 * default 5 s: the wait is as long as the test's own timeout, so it fails only when hydration never
 * comes.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true", { timeout: test.info().timeout });
}
