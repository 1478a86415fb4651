import { describe, expect, it, beforeAll } from "vitest";
import { apiJson, fetchAs, fixtureHotel, loadHotel } from "./helpers";

describe("the Worker", () => {
  beforeAll(async () => {
    await loadHotel(fixtureHotel("site.localhost"));
    await loadHotel(fixtureHotel("inactive.localhost", (file) => Object.assign(file.hotel, { status: 0 })));
  });

  it("serves a hotel's home page by its domain, in the language of the path", async () => {
    const response = await fetchAs("site.localhost", "/en-US");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<html lang="en-US"');
    expect(html).toContain("Fixture Hotel");
    expect(html.replace(/<script type="application\/ld\+json">[^<]*<\/script>/g, "")).not.toContain("<script");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("answers 404 for an unknown domain, an inactive hotel, an unknown path and a bad language prefix", async () => {
    expect((await fetchAs("nobody.localhost", "/")).status).toBe(404);
    expect((await fetchAs("inactive.localhost", "/")).status).toBe(404);
    const unknown = await fetchAs("site.localhost", "/en-US/no-such-page");
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("Oops! Page not found");
    expect((await fetchAs("site.localhost", "/fr-FR/")).status).toBe(404);
    const noPrefix = await fetchAs("site.localhost", "/zh-TW/about?x=1", { redirect: "manual" });
    expect(noPrefix.status).toBe(301);
    expect(noPrefix.headers.get("location")).toBe("/about?x=1");
  });

  it("answers the hotel API with the { success, msg, data } envelope", async () => {
    const found = await apiJson<{ hotel_name: string }>("site.localhost", "/api/hotel/info?domain=site.localhost&lang=en-US");
    expect(found.status).toBe(200);
    expect(found.body.success).toBe(true);
    expect(found.body.data.hotel_name).toBe("Fixture Hotel");

    const missing = await apiJson("site.localhost", "/api/hotel/info?domain=nobody.localhost&lang=en-US");
    expect(missing.status).toBe(404);
    expect(missing.body.success).toBe(false);
    expect(missing.body.msg.code).toBe("hotel_not_found");
    expect(missing.body.msg.message).toBe("No hotel is served at this domain");
  });
});

describe("analytics", () => {
  beforeAll(async () => {
    await loadHotel(fixtureHotel("tracked.localhost", (file) => Object.assign(file.hotel, { ga_code: "G-TEST1234", pixel_code: "123456789012" })));
  });

  it("loads GA and the Meta pixel only when configured, async and with the page's nonce", async () => {
    const tracked = await fetchAs("tracked.localhost", "/en-US");
    const html = await tracked.text();
    const nonce = /'nonce-([^']+)'/.exec(tracked.headers.get("content-security-policy") ?? "")?.[1];
    expect(html).toContain(`<script async="" src="https://www.googletagmanager.com/gtag/js?id=G-TEST1234" nonce="${nonce}">`);
    expect(html).toContain('fbq("init","123456789012")');
    const plain = await (await fetchAs("site.localhost", "/en-US")).text();
    expect(plain).not.toContain("googletagmanager");
    expect(plain).not.toContain("fbq(");
  });
});
