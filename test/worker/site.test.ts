import { env } from "cloudflare:test";
import { describe, expect, it, beforeAll } from "vitest";
import { pixelScript } from "~/lib/pixel";
import { apiJson, fetchAs, fixtureHotel, loadHotel, text } from "./helpers";

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
    await loadHotel(
      fixtureHotel("tracked.localhost", (file) => Object.assign(file.hotel, { ga_code: "G-TEST1234", pixel_code: "123456789012" })),
    );
  });

  it("loads GA and the Meta pixel only when configured, async and with the page's nonce", async () => {
    const tracked = await fetchAs("tracked.localhost", "/en-US");
    const html = await tracked.text();
    const nonce = /'nonce-([^']+)'/.exec(tracked.headers.get("content-security-policy") ?? "")?.[1];
    expect(html).toContain(`<script async="" src="https://www.googletagmanager.com/gtag/js?id=G-TEST1234" nonce="${nonce}">`);
    expect(html).toContain('fbq("init","123456789012")');
    // The pixel snippet reaches the page exactly as written: no bundler helper (such as __name) in it.
    expect(html).toContain(pixelScript("123456789012"));
    const plain = await (await fetchAs("site.localhost", "/en-US")).text();
    expect(plain).not.toContain("googletagmanager");
    expect(plain).not.toContain("fbq(");
  });
});

describe("the menu", () => {
  beforeAll(async () => {
    await loadHotel(
      fixtureHotel("menu.localhost", (file) =>
        Object.assign(file, {
          menus: {
            main: [
              { type: "rooms", label: { "en-US": "Rooms" } },
              { type: "custom", label: { "en-US": "Guide" }, url: "https://guide.example" },
              { type: "about", label: { "en-US": "About us" } },
            ],
          },
        }),
      ),
    );
    // The back end answers one item that breaks the contract (a label that is not text).
    await env.DB.prepare(
      "UPDATE menu_items SET label = '{\"en-US\": 5}' WHERE position = 1 AND hotel_id = (SELECT id FROM hotels WHERE domain = 'menu.localhost')",
    ).run();
  });

  it("shows an item that does not parse as an empty disabled item, and keeps the others", async () => {
    const html = await (await fetchAs("menu.localhost", "/en-US")).text();
    const nav = /<nav class="site-nav site-nav--wide"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? "";
    const items = [...nav.matchAll(/<li class="([^"]+)"[^>]*>([\s\S]*?)<\/li>/g)].map(([, className, content]) => ({
      disabled: className === "site-nav__item site-nav__item--disabled",
      text: (content ?? "").replace(/<[^>]+>/g, ""),
      href: /href="([^"]*)"/.exec(content ?? "")?.[1] ?? null,
    }));
    expect(items).toEqual([
      { disabled: false, text: "Rooms", href: "/en-US#rooms" },
      { disabled: true, text: "", href: null },
      { disabled: false, text: "About us", href: "/en-US/about" },
    ]);
  });
});

describe("canonical and hreflang links", () => {
  beforeAll(async () => {
    await loadHotel(
      fixtureHotel("seo.localhost", (file) =>
        Object.assign(file, {
          promotions: [{ key: "spring", category: "promotion", title: { "en-US": "Spring offer" }, public_at: "today-1" }],
        }),
      ),
    );
  });

  it("keep an event's id, and only that, in every language", async () => {
    const promotions = await apiJson<{ promotion_id: number; promotion_title: string }[]>(
      "seo.localhost",
      "/api/promotion/actives?domain=seo.localhost&lang=en-US",
    );
    expect(promotions.body.data.map((promotion) => promotion.promotion_title)).toEqual(["Spring offer"]);
    const id = promotions.body.data[0]?.promotion_id;
    const html = await (await fetchAs("seo.localhost", `/en-US/event?id=${id}&utm_source=news&preview=layout_100`)).text();
    const links = [...html.matchAll(/<link rel="(alternate|canonical)"(?: hrefLang="([^"]+)")? href="([^"]+)"/g)].map(
      ([, rel, lang, href]) => (rel === "canonical" ? `canonical ${href}` : `${lang} ${href}`),
    );
    expect(links.sort()).toEqual(
      [
        `canonical http://seo.localhost/en-US/event?id=${id}`,
        `en-US http://seo.localhost/en-US/event?id=${id}`,
        `x-default http://seo.localhost/event?id=${id}`,
        `zh-TW http://seo.localhost/event?id=${id}`,
      ].sort(),
    );
    const list = await (await fetchAs("seo.localhost", "/en-US/event?utm_source=news")).text();
    expect(list).toContain('<link rel="alternate" hrefLang="zh-TW" href="http://seo.localhost/event"/>');
    expect(list).toContain('<link rel="canonical" href="http://seo.localhost/en-US/event"/>');
  });
});

describe("the home page's banners", () => {
  beforeAll(async () => {
    const image = (name: string, alt = "") => ({ src: `/demo/${name}.svg`, width: 1600, height: 900, alt: { "en-US": alt } });
    await loadHotel(
      fixtureHotel("banners.localhost", (file) =>
        Object.assign(file.hotel, {
          banners: [
            { image: image("site", "Our lobby"), title: { "en-US": "Welcome" }, link: "/event?id=7" },
            { image: image("external"), title: { "en-US": "Spring in Taipei" }, link: "https://guide.example/spring" },
            { image: image("script", "Script"), link: "" },
            { image: image("protocol-relative", "Elsewhere"), link: "" },
            { image: image("plain", "No link") },
          ],
        }),
      ),
    );
    // The import refuses these links; a back end's data may still carry them, and the page must not.
    const row = await env.DB.prepare("SELECT banners FROM hotels WHERE domain = ?").bind("banners.localhost").first<{ banners: string }>();
    const banners = JSON.parse(row?.banners ?? "[]") as { link?: string }[];
    Object.assign(banners[2] ?? {}, { link: "javascript:alert(1)" });
    Object.assign(banners[3] ?? {}, { link: "//evil.example/" });
    await env.DB.prepare("UPDATE hotels SET banners = ?, content_version = content_version + 1 WHERE domain = ?")
      .bind(JSON.stringify(banners), "banners.localhost")
      .run();
  });

  it("link to a safe URL in the same tab, and show the other banners without a link", async () => {
    const html = await (await fetchAs("banners.localhost", "/en-US")).text();
    const slides = [...html.matchAll(/<figure class="hero__slide"[^>]*>([\s\S]*?)<\/figure>/g)].map(([, slide]) => {
      const src = /<img[^>]*src="([^"]+)"/.exec(slide ?? "")?.[1];
      const link = /<a ([^>]*)><img/.exec(slide ?? "")?.[1];
      if (!link) return `${src} (no link)`;
      const attribute = (name: string) => new RegExp(` ?${name}="([^"]*)"`).exec(link)?.[1];
      return `${src} → ${attribute("href")}${attribute("target") ? ` target ${attribute("target")}` : ""}${attribute("aria-label") ? ` named ${attribute("aria-label")}` : ""}`;
    });
    expect(slides).toEqual([
      "/demo/site.svg → /en-US/event?id=7", // named by its alt text
      "/demo/external.svg → https://guide.example/spring named Spring in Taipei",
      "/demo/script.svg (no link)",
      "/demo/protocol-relative.svg (no link)",
      "/demo/plain.svg (no link)",
    ]);
  });
});

// Issue 25 item 16: hotel text with character references reads as characters where guests and search engines read it.
describe("hotel text with character references", () => {
  beforeAll(async () => {
    await loadHotel(
      fixtureHotel("entities.localhost", (file) =>
        Object.assign(file.hotel, {
          hotel_name: { "en-US": "Caf&eacute; Lodge" },
          address: { "en-US": "1 Rue de l&#39;&Eacute;glise" },
          introduction: {
            "en-US": "<p>Our caf&eacute;&nbsp;opens at 7&hellip; and the lake &#8212; a minute away. Tom &amp;amp; Jerry &lt;3</p>",
          },
        }),
      ),
    );
  });

  it("shows decoded characters in the meta description, the JSON-LD and the page, escaped once", async () => {
    const html = await (await fetchAs("entities.localhost", "/en-US")).text();
    const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1];
    // React writes the attribute with & < > escaped once: "&amp;amp;" in the file is the text "&amp;".
    expect(description).toBe("Our café\u00a0opens at 7… and the lake — a minute away. Tom &amp;amp; Jerry &lt;3");
    const jsonLd = [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map(
      (match) => JSON.parse(match[1]!) as { name?: string; description?: string; address?: { streetAddress?: string } },
    );
    const hotel = jsonLd.find((item) => item.description);
    expect(hotel?.description).toBe("Our café\u00a0opens at 7… and the lake — a minute away. Tom &amp; Jerry <3");
    expect(hotel?.name).toBe("Café Lodge");
    expect(hotel?.address?.streetAddress).toBe("1 Rue de l'Église");
    // The introduction's HTML keeps its references, which the browser reads; nowhere else is one written.
    expect(text(html)).toContain("Café Lodge");
    expect(html.replace(/<div class="rich-text">[\s\S]*?<\/div>/g, "")).not.toMatch(/&(amp;)?(eacute|Eacute|nbsp|hellip|#8212);/);
  });
});
