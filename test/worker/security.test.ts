import { SELF, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { handleFetch } from "~/worker/worker.server";
import { apiJson, fetchAs, fixtureHotel, hidden, loadHotel, text } from "./helpers";

/**
 * Requests no guest's browser sends on purpose, and what they must get: a clear 4xx in the guest's
 * language (never a 500), nothing changed. Also the signing secret's guard and the order links.
 */
const HOST = "security.localhost";
const OTHER = "security-other.localhost";
const today = () => todayIn("Asia/Taipei");
const stay = () => `start=${addDays(today(), 15)}&end=${addDays(today(), 16)}&adults=2`;
const booking = () => `/en-US/hxa/booking?${stay()}`;
const checkout = () => `/en-US/hxa/checkout?${stay()}`;
const FORM = "application/x-www-form-urlencoded";

const ordersMade = async () =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM orders o JOIN hotels h ON h.id = o.hotel_id WHERE h.domain = ?")
    .bind(HOST)
    .first<number>("n")) ?? 0;
const alerts = (html: string) => [...html.matchAll(/role="alert">([^<]*)</g)].map((match) => match[1]);

/** A browser at HOST that keeps its cookies and can add any header to a request. */
class Client {
  cookies = new Map<string, string>();

  async send(path: string, init: { form?: Record<string, string>; body?: string; type?: string; headers?: Record<string, string> } = {}) {
    const headers = new Headers(init.headers);
    const jar = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    if (jar && !headers.has("cookie")) headers.set("cookie", jar);
    const body = init.form ? new URLSearchParams(init.form).toString() : init.body;
    const type = init.form ? FORM : init.type;
    if (type) headers.set("content-type", type);
    const response = await fetchAs(HOST, path, {
      method: body === undefined && !init.type ? "GET" : "POST",
      headers,
      body,
      redirect: "manual",
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const at = pair.indexOf("=");
      if (pair.slice(at + 1) === "" || /max-age=0/i.test(cookie)) this.cookies.delete(pair.slice(0, at));
      else this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return { status: response.status, html: await response.text(), location: response.headers.get("location") };
  }

  /** The booking page's add-to-cart form for its first plan. */
  async addForm(): Promise<Record<string, string>> {
    const page = await this.send(booking());
    expect(page.status).toBe(200);
    return {
      csrf: hidden(page.html, "csrf"),
      intent: "add",
      room_class_id: hidden(page.html, "room_class_id"),
      proposal_id: hidden(page.html, "proposal_id"),
      num: "1",
    };
  }

  async cartLines(): Promise<string> {
    return /(\d+) rooms? in total|No rooms chosen yet\./.exec(text((await this.send(booking())).html))?.[0] ?? "";
  }

  /** A client with one room in its cart and the checkout form filled in. */
  static async atCheckout(): Promise<{ client: Client; form: Record<string, string> }> {
    const client = new Client();
    expect((await client.send(booking(), { form: await client.addForm() })).status).toBe(303);
    const page = await client.send(checkout());
    expect(page.status).toBe(200);
    const form = {
      csrf: hidden(page.html, "csrf"),
      checkout_key: hidden(page.html, "checkout_key"),
      due_now: hidden(page.html, "due_now"),
      intent: "order",
      booker_last_name: "Chen",
      booker_first_name: "Yi",
      booker_phone: "0912-345-678",
      booker_email: "yi@example.com",
      pay_option: "all",
      payment: "8:remittance",
    };
    return { client, form };
  }
}

beforeAll(async () => {
  await loadHotel(fixtureHotel(HOST));
  await loadHotel(fixtureHotel(OTHER));
});

describe("the CSRF check of every form", () => {
  it("refuses an add to the cart without the token, or with another one, with 403 and the page's message, and adds nothing", async () => {
    const client = new Client();
    const form = await client.addForm();
    for (const csrf of ["", "Zm9yZ2VkLXRva2VuLW9mLWFub3RoZXItYnJvd3Nlcg0"]) {
      const refused = await client.send(booking(), { form: { ...form, csrf } });
      expect(refused.status).toBe(403);
      expect(alerts(refused.html)).toContain("This page has expired: reload it and try again.");
    }
    const { csrf: _token, ...withoutToken } = form;
    expect((await client.send(booking(), { form: withoutToken })).status).toBe(403);
    expect(await client.cartLines()).toBe("No rooms chosen yet.");
  });

  it("refuses an order without the token, or with another one, with 403 and the page's message, and books nothing", async () => {
    const { client, form } = await Client.atCheckout();
    const before = await ordersMade();
    for (const csrf of ["", "Zm9yZ2VkLXRva2VuLW9mLWFub3RoZXItYnJvd3Nlcg0"]) {
      const refused = await client.send(checkout(), { form: { ...form, csrf } });
      expect(refused.status).toBe(403);
      expect(alerts(refused.html)).toContain("This page has expired: reload it and try again.");
    }
    expect(await ordersMade()).toBe(before);
    // The same form with its token books.
    expect((await client.send(checkout(), { form })).status).toBe(303);
    expect(await ordersMade()).toBe(before + 1);
  });
});

describe("a POST from another site", () => {
  it("is refused with 403 and the page's message, even carrying the guest's cookies and token, and changes nothing", async () => {
    const { client, form } = await Client.atCheckout();
    const before = await ordersMade();
    for (const origin of ["https://evil.example", "http://security.localhost.evil.example", "not a url"]) {
      const order = await client.send(checkout(), { form, headers: { origin } });
      expect(order.status).toBe(403);
      expect(alerts(order.html)).toContain("This page has expired: reload it and try again.");
      const add = await client.send(booking(), { form: await client.addForm(), headers: { origin } });
      expect(add.status).toBe(403);
      expect(alerts(add.html)).toContain("This page has expired: reload it and try again.");
    }
    expect(await ordersMade()).toBe(before);
    expect(await client.cartLines()).toBe("1 room in total");
  });

  it("with `Origin: null` (privacy modes) is judged by its token alone: refused without it, accepted with it", async () => {
    const client = new Client();
    const form = await client.addForm();
    const refused = await client.send(booking(), { form: { ...form, csrf: "" }, headers: { origin: "null" } });
    expect(refused.status).toBe(403);
    expect(alerts(refused.html)).toContain("This page has expired: reload it and try again.");
    expect((await client.send(booking(), { form, headers: { origin: "null" } })).status).toBe(303);
    expect(await client.cartLines()).toBe("1 room in total");
  });

  it("from this site's own origin, or with a forged X-Forwarded-Host, goes through as usual", async () => {
    const client = new Client();
    const form = await client.addForm();
    expect((await client.send(booking(), { form, headers: { origin: `http://${HOST}`, "x-forwarded-host": "evil.example" } })).status).toBe(
      303,
    );
    expect(await client.cartLines()).toBe("1 room in total");
  });
});

describe("a body that is not a form", () => {
  for (const [name, body, type] of [
    ["JSON", '{"intent":"add","num":"1"}', "application/json"],
    ["an empty body", "", FORM],
    ["an empty body without a type", "", "text/plain"],
    ["text", "intent=add", "text/plain"],
  ] as const) {
    it(`posted to the booking page or the checkout (${name}) is a 400 with the page's message, and changes nothing`, async () => {
      const { client } = await Client.atCheckout();
      const before = await ordersMade();
      for (const path of [booking(), checkout()]) {
        const refused = await client.send(path, { body, type });
        expect(refused.status).toBe(400);
        expect(alerts(refused.html)).toContain("This page has expired: reload it and try again.");
      }
      expect(await ordersMade()).toBe(before);
      expect(await client.cartLines()).toBe("1 room in total");
    });
  }
});

describe("a malformed signed cookie", () => {
  const pages = () => ["/en-US", "/", "/en-US/room/1", booking(), checkout()];
  for (const cookie of ["member=a.b", "cart=a.b", "csrf=a.b", "last_order=a.b", "member=%E0%A4", "cart=..", "csrf=e30=.x"]) {
    it(`(${cookie}) is dropped: every page still answers`, async () => {
      for (const path of pages()) {
        const response = await fetchAs(HOST, path, { headers: { cookie }, redirect: "manual" });
        expect([200, 303, 404], `${path} with ${cookie}: ${response.status}`).toContain(response.status);
        await response.body?.cancel();
      }
    });
  }

  it("does not stop a form: the booking page hands out a fresh token and the cart takes the room", async () => {
    const client = new Client();
    client.cookies.set("csrf", "a.b");
    client.cookies.set("cart", "a.b");
    client.cookies.set("member", "a.b");
    const form = await client.addForm();
    expect(form.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await client.send(booking(), { form })).status).toBe(303);
    expect(await client.cartLines()).toBe("1 room in total");
  });

  it("in last_order does not stop an order", async () => {
    const { client, form } = await Client.atCheckout();
    client.cookies.set("last_order", "a.b");
    expect((await client.send(checkout(), { form })).status).toBe(303);
  });
});

describe("a Host header that is not a host", () => {
  it("is a 400 in the path's language, before any page or API is reached", async () => {
    for (const host of [`${HOST}:8787@evil.example`, `${HOST} evil.example`, `${HOST}/x`]) {
      const page = await SELF.fetch(`http://${HOST}/en-US`, { headers: { host } });
      expect(page.status).toBe(400);
      expect(await page.text()).toBe("The host name of this request is not valid\n");
      expect(page.headers.get("x-content-type-options")).toBe("nosniff");
      const api = await SELF.fetch(`http://${HOST}/api/health`, { headers: { host } });
      expect(api.status).toBe(400);
      await api.body?.cancel();
    }
    const fine = await SELF.fetch(`http://${HOST}/en-US`, { headers: { host: `${HOST}:8787` } });
    expect(fine.status).toBe(200);
    await fine.body?.cancel();
  });
});

describe("the signing secret", () => {
  const remix = async () => new Response("the site", { status: 200 });
  const ctx = { waitUntil: () => undefined, passThroughOnException: () => undefined, props: {} } as unknown as ExecutionContext;
  const withSecret = (secret: string) => ({ ...(env as unknown as Record<string, unknown>), SESSION_SECRET: secret });

  it("when it is a known development value, serves nothing on a public host: 503 in the guest's language", async () => {
    for (const secret of ["local-development-secret-change-me-0123456789", "development-only-secret-never-deploy-0123456789"]) {
      for (const path of ["/en-US/hxa/booking", "/api/hotel/info?domain=hotel.example&lang=en-US"]) {
        const response = await handleFetch(new Request(`https://hotel.example${path}`), withSecret(secret), ctx, remix, "test-build");
        expect(response.status).toBe(503);
        expect(await response.text()).toBe("This site is temporarily unavailable. Please try again later.\n");
      }
    }
  });

  it("when it is missing (a deploy without `wrangler secret put`), serves nothing: 503, not a crash", async () => {
    const { SESSION_SECRET: _secret, ...withoutSecret } = env as unknown as Record<string, unknown>;
    const response = await handleFetch(new Request("https://hotel.example/en-US"), withoutSecret, ctx, remix, "test-build");
    expect(response.status).toBe(503);
    expect(await response.text()).toBe("This site is temporarily unavailable. Please try again later.\n");
  });

  it("when it is a known development value, still serves localhost and *.localhost", async () => {
    // A booking page: never answered from the edge's page cache, so the site itself answers.
    for (const url of [
      "http://localhost:8787/en-US/hxa/booking",
      `http://${HOST}:8787/en-US/hxa/booking`,
      "http://127.0.0.1:8787/en-US/hxa/booking",
    ]) {
      const response = await handleFetch(
        new Request(url),
        withSecret("development-only-secret-never-deploy-0123456789"),
        ctx,
        remix,
        "test-build",
      );
      expect(response.status).toBe(200);
      expect(await response.text()).toBe("the site");
    }
  });

  it("of the tests is not one of the known development values, and a public host is served with it", async () => {
    const response = await handleFetch(
      new Request("https://hotel.example/en-US"),
      withSecret(env.SESSION_SECRET),
      ctx,
      remix,
      "test-build",
    );
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });
});

describe("signed order links", () => {
  let night = 30;
  async function placeOrder(domain: string) {
    night += 1;
    const room = await env.DB.prepare("SELECT rc.id FROM room_classes rc JOIN hotels h ON h.id = rc.hotel_id WHERE h.domain = ?")
      .bind(domain)
      .first<number>("id");
    const plan = await env.DB.prepare("SELECT rp.id FROM rate_plans rp JOIN hotels h ON h.id = rp.hotel_id WHERE h.domain = ?")
      .bind(domain)
      .first<number>("id");
    const created = await apiJson<{ order: { order_doc: string; valid_hash: string; cancel_hash: string; check_out_day: string } }>(
      domain,
      "/api/ota/order/personal-new?lang=en-US",
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          domain,
          booker_first_name: "Mei",
          booker_last_name: "Lin",
          booker_phone: "0912 345 678",
          booker_email: "mei@example.com",
          check_in_day: addDays(today(), night),
          check_out_day: addDays(today(), night + 1),
          pay_way: "remittance",
          payment_vendor: 8,
          orders: [{ room_class_id: room, proposal_id: plan, num: 1 }],
          adults_count: 2,
        }),
      },
    );
    expect(created.status).toBe(201);
    return created.body.data.order;
  }

  const hmac = async (message: string) => {
    const key = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(env.SESSION_SECRET),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message)));
    return btoa(String.fromCharCode(...signature))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
  };
  const viaHash = (domain: string, link: string) =>
    apiJson(domain, `/api/ota/order/via-hash?domain=${domain}&lang=en-US&valid_hash=${encodeURIComponent(link)}`);

  it("name the order, an expiry and a signature; a view link lasts a year past check-out, a cancel link until the end of check-out day", async () => {
    const order = await placeOrder(HOST);
    const checkOut = Date.parse(`${order.check_out_day}T00:00:00Z`) / 1000;
    expect(order.valid_hash).toBe(`${order.order_doc}.${checkOut + 366 * 86400}.${order.valid_hash.split(".")[2]}`);
    expect(order.cancel_hash).toBe(`${order.order_doc}.${checkOut + 86400}.${order.cancel_hash.split(".")[2]}`);
    expect((await viaHash(HOST, order.valid_hash)).status).toBe(200);
  });

  it("of the first scheme (order and purpose only, no hotel or expiry) are refused, even correctly signed", async () => {
    const order = await placeOrder(HOST);
    const old = `${order.order_doc}.${await hmac(`${order.order_doc}:view`)}`;
    const refused = await viaHash(HOST, old);
    expect(refused.status).toBe(403);
    expect(refused.body.msg.code).toBe("hash_invalid");
    const cancel = await apiJson(HOST, `/api/wota/order/cancel-via-hash/${order.order_doc}?lang=en-US`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ domain: HOST, valid_hash: `${order.order_doc}.${await hmac(`${order.order_doc}:cancel`)}` }),
    });
    expect(cancel.status).toBe(403);
    expect(await env.DB.prepare("SELECT status FROM orders WHERE order_doc = ?").bind(order.order_doc).first<string>("status")).toBe(
      "pending_payment",
    );
  });

  it("with a later expiry than signed, or past their expiry, are refused", async () => {
    const order = await placeOrder(HOST);
    const [doc, expires, signature] = order.valid_hash.split(".");
    expect((await viaHash(HOST, `${doc}.${Number(expires) + 86400}.${signature}`)).status).toBe(403);
    const hotelId = await env.DB.prepare("SELECT id FROM hotels WHERE domain = ?").bind(HOST).first<number>("id");
    const past = Math.floor(Date.now() / 1000) - 60;
    const expired = `${doc}.${past}.${await hmac(`order-link:${hotelId}:${doc}:view:${past}`)}`;
    expect((await viaHash(HOST, expired)).status).toBe(403);
    // The same message with a future expiry is a working link: only the expiry refused it.
    const future = past + 3600;
    expect((await viaHash(HOST, `${doc}.${future}.${await hmac(`order-link:${hotelId}:${doc}:view:${future}`)}`)).status).toBe(200);
  });

  it("are bound to their hotel: a link signed for another hotel's id does not open the order", async () => {
    const order = await placeOrder(HOST);
    const [doc, expires] = order.valid_hash.split(".");
    const sign = async (domain: string) => {
      const hotelId = await env.DB.prepare("SELECT id FROM hotels WHERE domain = ?").bind(domain).first<number>("id");
      return `${doc}.${expires}.${await hmac(`order-link:${hotelId}:${doc}:view:${expires}`)}`;
    };
    expect((await viaHash(HOST, await sign(OTHER))).status).toBe(403);
    // Signed for its own hotel, the same link opens it: only the hotel refused the other.
    expect(await sign(HOST)).toBe(order.valid_hash);
    expect((await viaHash(HOST, await sign(HOST))).status).toBe(200);
  });
});

describe("the checkout form's text fields", () => {
  const errorAt = (html: string, name: string) => new RegExp(`id="${name}-error">([^<]*)<`).exec(html)?.[1] ?? null;
  const CONTROL_MESSAGE = "This contains hidden control characters that cannot be used; please type it again.";

  it("refuse control characters, each with its own message at its field, and book nothing", async () => {
    const { client, form } = await Client.atCheckout();
    const before = await ordersMade();
    const refused = await client.send(checkout(), {
      form: {
        ...form,
        booker_first_name: "Yi\u0000",
        booker_last_name: "Chen\u001b[2J",
        company_name: "Example\r\nCo.",
        memo: "late\u0000",
        occupant_name_0: "Lin\u0007Mei",
      },
    });
    expect(refused.status).toBe(400);
    for (const field of ["booker_first_name", "booker_last_name", "company_name", "memo", "occupant_name_0"]) {
      expect(errorAt(refused.html, field), field).toBe(CONTROL_MESSAGE);
    }
    expect(errorAt(refused.html, "booker_email")).toBeNull();
    expect(await ordersMade()).toBe(before);
  });

  it("refuse direction controls in every name field, each a field error in the guest's language, and book nothing", async () => {
    const { client, form } = await Client.atCheckout();
    const before = await ordersMade();
    // The override issue 22 found (U+202E in the last name reversed the phone and email), and every other direction control.
    for (const control of [
      "\u202A",
      "\u202B",
      "\u202C",
      "\u202D",
      "\u202E",
      "\u2066",
      "\u2067",
      "\u2068",
      "\u2069",
      "\u200E",
      "\u200F",
      "\u061C",
    ]) {
      const refused = await client.send(checkout(), {
        form: { ...form, booker_last_name: `Lin${control}`, booker_first_name: `${control}Mei`, occupant_name_0: `Chen${control} Yi` },
      });
      const name = `U+${control.charCodeAt(0).toString(16).toUpperCase()}`;
      expect(refused.status, name).toBe(400);
      for (const field of ["booker_last_name", "booker_first_name", "occupant_name_0"])
        expect(errorAt(refused.html, field), `${name} in ${field}`).toBe(CONTROL_MESSAGE);
      expect(errorAt(refused.html, "booker_phone"), name).toBeNull();
    }
    const zhCheckout = checkout().replace("/en-US/", "/");
    const chinese = await client.send(zhCheckout, { form: { ...form, booker_last_name: "林\u202E" } });
    expect(chinese.status).toBe(400);
    expect(errorAt(chinese.html, "booker_last_name")).toBe("此欄位含有無法使用的隱藏控制字元，請重新輸入。");
    expect(await ordersMade()).toBe(before);
  });

  it("show the message in the guest's language", async () => {
    const { client, form } = await Client.atCheckout();
    const zhCheckout = checkout().replace("/en-US/", "/");
    const refused = await client.send(zhCheckout, { form: { ...form, booker_first_name: "Yi\u0000" } });
    expect(refused.status).toBe(400);
    expect(errorAt(refused.html, "booker_first_name")).toBe("此欄位含有無法使用的隱藏控制字元，請重新輸入。");
  });

  it("refuse a date as the phone number, and take a note's line breaks", async () => {
    const { client, form } = await Client.atCheckout();
    const before = await ordersMade();
    const refused = await client.send(checkout(), { form: { ...form, booker_phone: "2026-12-10", occupant_phone_0: "2026-12-10" } });
    expect(refused.status).toBe(400);
    expect(errorAt(refused.html, "booker_phone")).toBe("Enter a valid phone number");
    expect(errorAt(refused.html, "occupant_phone_0")).toBe("Enter a valid phone number");
    expect(await ordersMade()).toBe(before);

    const placed = await client.send(checkout(), { form: { ...form, memo: "Arriving late,\r\nabout 23:00" } });
    expect(placed.status).toBe(303);
    expect(await ordersMade()).toBe(before + 1);
    const memo = await env.DB.prepare(
      "SELECT o.memo FROM orders o JOIN hotels h ON h.id = o.hotel_id WHERE h.domain = ? ORDER BY o.id DESC",
    )
      .bind(HOST)
      .first<string>("memo");
    expect(memo).toBe("Arriving late,\r\nabout 23:00");
  });
});
