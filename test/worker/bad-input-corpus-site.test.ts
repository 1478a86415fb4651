/**
 * The bad-input corpus over the site (bad-input-corpus.ts): every page of app/routes/ with every
 * bad cookie and a hostile query, every action with every bad body. Also checks that the corpus
 * still sees every route the code serves. The corpus's site routes are part 1 of 3 here; parts 2 and
 * 3 are files of their own, each with a workerd instance of its own (decisions 153, 158).
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BACKEND_ROUTES } from "~/backend/router.server";
import { SANDBOX_PATHS } from "~/backend/payments/sandbox/sandbox.server";
import ja from "../../locales/ja-JP/common.json";
import {
  badInputCorpus,
  corpusFixture,
  HOST,
  LANG,
  placeOrder,
  PRODUCT,
  requestsFor,
  routeUrl,
  siteRoutes,
  targets,
} from "./bad-input-corpus";
import { fetchAs, hidden, text } from "./helpers";

describe("the corpus covers what the code serves", () => {
  it("every route module, every back-end route and every test-gateway path", () => {
    // The lists come from the code (route files, the back end's table, the gateway's paths): if
    // these fail, the corpus no longer reads them.
    expect(siteRoutes.length).toBeGreaterThanOrEqual(25);
    expect(siteRoutes.filter((route) => route.action).map((route) => route.file)).toEqual(
      expect.arrayContaining([
        "($lang).$product.booking.tsx",
        "($lang).$product.checkout.tsx",
        "($lang).$product.logout.tsx",
        "($lang).$product.orders.$orderDoc_.cancel.tsx",
        "($lang).$product.bookings.download-accommodation-proof.tsx",
        "($lang).$product.download.download-accommodation-proof.$id.tsx",
        "($lang).pay.$hotelId.$orderDoc.tsx",
      ]),
    );
    expect(BACKEND_ROUTES.filter((route) => route.method === "POST").length).toBeGreaterThanOrEqual(15);
    expect(SANDBOX_PATHS).toEqual(["/sandbox-gateway/ecpay/checkout", "/sandbox-gateway/ecpay/decide", "/sandbox-gateway/ecpay/atm"]);
    expect(targets.filter((target) => target.kind === "site" && target.body).length).toBe(
      siteRoutes.filter((route) => route.action).length,
    );
    const total = targets.reduce((sum, target) => sum + requestsFor(target), 0);
    console.log(
      `bad-input corpus: ${total} requests over ${targets.length} routes (${siteRoutes.length} route modules, ${BACKEND_ROUTES.length} back-end routes, ${SANDBOX_PATHS.length} gateway paths)`,
    );
  });

  it("works out each page's address from its file name as Remix reads it", () => {
    expect(routeUrl("($lang)._index.tsx")).toBe("/ja-JP");
    expect(routeUrl("favicon[.]ico.tsx")).toBe("/favicon.ico");
    expect(routeUrl("($lang).$.tsx")).toBe("/ja-JP/no-such-page");
    expect(routeUrl("($lang).$product.orders.$orderDoc_.confirmation[.]pdf.tsx")).toMatch(
      /^\/ja-JP\/hxa\/orders\/PT\d{6}-[A-Z0-9]+\/confirmation\.pdf\?valid_hash=/,
    );
  });
});

describe("what a guest sees after bad input (issue 22, item 18)", () => {
  const page = (path: string, init: RequestInit = {}) => fetchAs(HOST, path, { redirect: "manual", ...init });
  const orderStatus = async (orderDoc: string) =>
    (await env.DB.prepare("SELECT status FROM orders WHERE order_doc = ?").bind(orderDoc).first<{ status: string }>())?.status;

  it("a d1_bookmark cookie that does not decode (set by a sibling subdomain) is ignored: every page is the hotel's page", async () => {
    for (const cookie of ["d1_bookmark=%", "d1_bookmark=%E0%A4%A"]) {
      const home = await page(`/${LANG}`, { headers: { cookie } });
      expect(home.status).toBe(200);
      const html = await home.text();
      expect(html).toContain('<html lang="ja-JP"');
      expect(html).not.toContain('role="alert"');
      const booking = await page(`/${LANG}/${PRODUCT}/booking`, { headers: { cookie } });
      expect(booking.status).toBe(200);
      await booking.body?.cancel();
    }
  });

  it("a sign-out POST whose body is not a form (JSON, text, broken multipart) is a 403 that says to reload, in Japanese", async () => {
    for (const [type, body] of [
      ["application/json", '{"sign_out_token":"x"}'],
      ["text/plain", "sign_out_token=x"],
      ["multipart/form-data; boundary=a", "--b\r\n\r\n--b--"],
    ] as const) {
      const response = await page(`/${LANG}/${PRODUCT}/logout`, { method: "POST", headers: { "content-type": type }, body });
      expect(response.status).toBe(403);
      expect(text(await response.text())).toContain(ja["form.error.expired"]);
    }
  });

  it("a pay-now POST whose body is not a form is a 403 that says to reload, in Japanese, and opens no payment", async () => {
    const { hotelId, orderDoc, viewHash } = corpusFixture();
    const attempts = async () =>
      (
        await env.DB.prepare("SELECT COUNT(*) AS n FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.order_doc = ?")
          .bind(orderDoc)
          .first<{ n: number }>()
      )?.n;
    const before = await attempts();
    for (const [type, body] of [
      ["application/json", "{}"],
      ["text/plain", "csrf=x"],
      ["", ""],
    ] as const) {
      const response = await page(`/${LANG}/pay/${hotelId}/${orderDoc}?valid_hash=${encodeURIComponent(viewHash)}`, {
        method: "POST",
        headers: type ? { "content-type": type } : {},
        body,
      });
      expect(response.status).toBe(403);
      expect(text(await response.text())).toContain(ja["form.error.expired"]);
    }
    expect(await attempts()).toBe(before);
  });

  it("a cancellation reason with control characters, or too long, is the form again with the field's message: nothing is cancelled", async () => {
    const order = await placeOrder();
    const path = `/${LANG}/${PRODUCT}/orders/${order.orderDoc}/cancel?cancel_hash=${encodeURIComponent(order.cancelHash)}`;
    const form = await page(path);
    expect(form.status).toBe(200);
    const cookie =
      form.headers
        .getSetCookie()
        .find((value) => value.startsWith("csrf="))
        ?.split(";")[0] ?? "";
    const csrf = hidden(await form.text(), "csrf");
    const post = (reason: string) =>
      page(path, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrf, reason }),
      });

    const nul = await post("plans changed\u0000");
    expect(nul.status).toBe(400);
    const nulPage = await nul.text();
    expect(text(nulPage)).toContain(ja["form.error.control_characters"]);
    expect(nulPage).toMatch(/<textarea[^>]*aria-invalid="true"/);

    const long = await post("x".repeat(501));
    expect(long.status).toBe(400);
    expect(text(await long.text())).toContain(ja["form.error.too_long"]);
    expect(await orderStatus(order.orderDoc)).not.toBe("cancelled");

    // Line breaks and tabs are fine in a note: the same form then cancels.
    const fine = await post("plans changed,\r\n\tsorry");
    expect(fine.status).toBe(303);
    expect(await orderStatus(order.orderDoc)).toBe("cancelled");
  });
});

badInputCorpus(["site"], { part: 1, of: 3 });
