import { beforeAll, describe, expect, it } from "vitest";
import { Browser, apiJson, fetchAs, fixtureHotel, loadHotel, text } from "./helpers";

const HOST = "guards.localhost";
const ORIGIN = `http://${HOST}`;

/** Where a browser goes with this Location, from a page of HOST. */
const target = (location: string) => new URL(location, `${ORIGIN}/some/page`);

const manual = (path: string, init: RequestInit = {}) => fetchAs(HOST, path, { redirect: "manual", ...init });

let roomId = 0;

beforeAll(async () => {
  await loadHotel(fixtureHotel(HOST));
  await loadHotel(fixtureHotel("guards-inactive.localhost", (file) => Object.assign(file.hotel, { status: 0 })));
  await loadHotel(fixtureHotel("guards-nosite.localhost", (file) => Object.assign(file.hotel, { website_exist: false })));
  await loadHotel(
    fixtureHotel("guards-icon.localhost", (file) => Object.assign(file.hotel, { icon_images: { main: "/demo/taipei/icon.svg" } })),
  );
  await loadHotel(
    fixtureHotel("guards-english.localhost", (file) => Object.assign(file.hotel, { main_lang: "en-US", support_lang: ["en-US", "ja-JP"] })),
  );
  const rooms = await apiJson<{ room_class_id: number }[]>(HOST, `/api/ota/room/list?domain=${HOST}&lang=en-US`);
  roomId = rooms.body.data[0]?.room_class_id ?? 0;
  expect(roomId).toBeGreaterThan(0);
});

describe("redirects never leave the site (S2)", () => {
  const attacks = ["//evil.com", "///evil.com", "/\\evil.com", "\\/evil.com", "//%65vil.com"];
  const suffixes = ["", "?x=1", "#x"];
  // Every route that redirects: the zh-TW prefix, any other spelling of a path (case, slashes,
  // language tag), and the short booking path in each language.
  const bases = ["", "/zh-TW", "/zh-tw", "/en-us", "/en-US", "/About", "/booking", "/en-US/booking", "/ja-JP/booking", "/hxa"];

  it("GET: every variant on every redirecting route stays on the request's origin", async () => {
    const checked: string[] = [];
    for (const base of bases) {
      for (const attack of attacks) {
        for (const suffix of suffixes) {
          const path = `${base}${attack}${suffix}`;
          const response = await manual(path);
          const location = response.headers.get("location");
          if (location === null) continue;
          checked.push(path);
          expect(location, path).toMatch(/^\/(?![/\\])/);
          expect(target(location).origin, path).toBe(ORIGIN);
        }
      }
    }
    // Every variant did reach a redirect (none was answered some other way and left unchecked).
    expect(checked).toHaveLength(bases.length * attacks.length * suffixes.length);
  });

  it("answers /zh-TW//evil.com with a 301 to a path of this site", async () => {
    const response = await manual("/zh-TW//evil.com");
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe("/evil.com");
  });

  it("POST: the booking form's redirect back to itself stays on the origin whatever the path", async () => {
    const browser = new Browser(HOST);
    for (const attack of attacks) {
      const { location } = await browser.request(`${attack}/hxa/booking`, {
        intent: "add",
      });
      if (location !== null) expect(target(location).origin, attack).toBe(ORIGIN);
    }
  });
});

describe("one address per page (16)", () => {
  const cases: [string, string][] = [
    ["/en-US/", "/en-US"],
    ["/en-us/", "/en-US"],
    ["/en-us", "/en-US"],
    ["/EN-US/About", "/en-US/about"],
    ["/About", "/about"],
    ["/about/", "/about"],
    ["/about//", "/about"],
    ["/zh-TW", "/"],
    ["/zh-TW/", "/"],
    ["/zh-tw/about?x=1", "/about?x=1"],
    ["/event/?id=007", "/event?id=7"],
    ["/en-US/Event?id=012&utm_source=x", "/en-US/event?id=12&utm_source=x"],
  ];

  it.each(cases)("%s is a 301 to %s", async (from, to) => {
    const response = await manual(from);
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe(to);
  });

  it("a room id with leading zeros is a 301 to the id without them", async () => {
    const response = await manual(`/room/00${roomId}`);
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe(`/room/${roomId}`);
  });

  it("the canonical forms answer 200 and name themselves canonical, keeping the request's port", async () => {
    for (const path of ["/", "/en-US", "/about", `/room/${roomId}`]) {
      const response = await fetchAs(`${HOST}:8792`, path, {
        redirect: "manual",
      });
      expect(response.status, path).toBe(200);
      const html = await response.text();
      const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
      expect(canonical, path).toBe(`http://${HOST}:8792${path}`);
      expect(html).toContain(`hrefLang="en-US" href="http://${HOST}:8792/en-US`);
    }
  });
});

describe("the short booking path (11)", () => {
  it.each([
    ["/booking?start=2030-01-01", "/hxa/booking?start=2030-01-01"],
    ["/en-US/booking?start=2030-01-01&adults=2", "/en-US/hxa/booking?start=2030-01-01&adults=2"],
    ["/ja-JP/booking", "/ja-JP/hxa/booking"],
    ["/ko-KR/booking", "/ko-KR/hxa/booking"],
    ["/zh-CN/booking", "/zh-CN/hxa/booking"],
    ["/zh-TW/booking", "/hxa/booking"],
  ])("%s redirects to %s", async (from, to) => {
    const response = await manual(from);
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe(to);
  });
});

describe("404s of a live hotel are its whole site (12)", () => {
  const paths = ["/nope", "/a/b", "/room/99999", "/room/abc", "/event?id=99999", "/en-US/nope", "/xx-yy/about", "/en-US/hxb/booking"];

  it.each(paths)("%s: 404 with header, footer, the §2 text and a link home; no hreflang", async (path) => {
    const response = await manual(path);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('class="site-header');
    expect(html).toContain("<footer");
    expect(html).toMatch(/class="not-found"/);
    expect(html).toMatch(/<a [^>]*href="\/(en-US)?"[^>]*class="button"|<a [^>]*class="button"[^>]*href="\/(en-US)?"/);
    expect(html).not.toMatch(/<link rel="alternate"/);
    expect(html).not.toContain('rel="canonical"');
  });

  it("inactive and no-website hotels keep a plain 404", async () => {
    for (const host of ["guards-inactive.localhost", "guards-nosite.localhost"]) {
      for (const path of ["/", "/nope", "/en-US/about"]) {
        const response = await fetchAs(host, path, { redirect: "manual" });
        expect(response.status, `${host}${path}`).toBe(404);
        expect(await response.text()).not.toContain("<footer");
      }
    }
  });
});

describe("/favicon.ico", () => {
  it("is the hotel's icon, and a 404 for a hotel without one or not live", async () => {
    const response = await fetchAs("guards-icon.localhost", "/favicon.ico", { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("location") ?? "", "http://guards-icon.localhost").pathname).toBe("/demo/taipei/icon.svg");
    expect((await manual("/favicon.ico")).status).toBe(404);
    expect((await fetchAs("guards-inactive.localhost", "/favicon.ico", { redirect: "manual" })).status).toBe(404);
  });
});

describe("a language the hotel does not publish", () => {
  it.each([
    [HOST, "/ja-JP", "/"],
    [HOST, "/ko-KR/about?x=1", "/about?x=1"],
    [HOST, "/ja-JP/hxa/booking?adults=2", "/hxa/booking?adults=2"],
    ["guards-english.localhost", "/", "/en-US"],
    ["guards-english.localhost", "/about", "/en-US/about"],
    ["guards-english.localhost", "/ko-KR/facilities", "/en-US/facilities"],
  ])("%s%s: a temporary redirect to the same page in the hotel's main language", async (host, path, to) => {
    const response = await fetchAs(host, path, { redirect: "manual" });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location") ?? "", `http://${host}`);
    expect(`${location.pathname}${location.search}`).toBe(to);
    const landed = await fetchAs(host, to, { redirect: "manual" });
    expect(landed.status).toBe(200);
  });

  it("a language it publishes is served as it is", async () => {
    expect((await fetchAs("guards-english.localhost", "/ja-JP/about", { redirect: "manual" })).status).toBe(200);
    expect((await manual("/en-US/about")).status).toBe(200);
  });
});

describe("an inactive hotel or one without a website has no API (10)", () => {
  const start = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const end = new Date(Date.now() + 31 * 86_400_000).toISOString().slice(0, 10);
  const calls = (domain: string): [string, RequestInit?][] => [
    [`/api/hotel/info?domain=${domain}&lang=en-US`],
    [`/api/custom/menu?domain=${domain}&lang=en-US`],
    [`/api/ota/room/list?domain=${domain}&lang=en-US`],
    [`/api/ota/room/empty-by-date?domain=${domain}&start_date=${start}&end_date=${end}&lang=en-US`],
    [`/api/ota/room/rateplan/empty-by-date?domain=${domain}&start_date=${start}&end_date=${end}&lang=en-US`],
    [`/api/wota/room_calendar?domain=${domain}&start_date=${start}&end_date=${end}&lang=en-US`],
    [`/api/facility/get_all?domain=${domain}&lang=en-US`],
    [`/api/promotion/all_types?domain=${domain}&lang=en-US`],
    [`/api/attraction/actives?domain=${domain}&lang=en-US`],
    [`/master/hotels/preferences?domain=${domain}`],
    [
      `/api/ota/order/calculate?lang=en-US`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          domain,
          check_in_day: start,
          check_out_day: end,
          orders: [{ room_class_id: roomId, proposal_id: 1, num: 1 }],
        }),
      },
    ],
    [
      `/api/discount/coupon_confirm?lang=en-US`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          domain,
          coupon_code: ["WELCOME10"],
          check_in_date: start,
          check_out_date: end,
        }),
      },
    ],
  ];

  it("the live fixture answers these calls", async () => {
    const info = await apiJson(HOST, `/api/hotel/info?domain=${HOST}&lang=en-US`);
    expect(info.status).toBe(200);
  });

  it.each(["guards-inactive.localhost", "guards-nosite.localhost"])("%s: every call is 404 hotel_not_found", async (domain) => {
    for (const [path, init] of calls(domain)) {
      const { status, body } = await apiJson(HOST, path, init);
      expect(status, path).toBe(404);
      expect(body.msg.code, path).toBe("hotel_not_found");
    }
  });
});

describe("an empty event (15)", () => {
  it.each(["/event?id=abc", "/event?id=", "/en-US/event?id=abc"])("%s is the empty event, noindex", async (path) => {
    const response = await manual(path);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).toContain("event--empty");
  });

  it("a real list page stays indexable", async () => {
    const html = await (await manual("/event")).text();
    expect(html).not.toContain("noindex");
    expect(text(html)).toBeTruthy();
  });
});

describe("news, attractions and the footer (14)", () => {
  const NEWS_HOST = "guards-news.localhost";
  const BARE_HOST = "guards-bare.localhost";
  const item = (category: string, index: number) => ({
    key: `${category}-${index}`,
    category,
    title: {
      "zh-TW": `${category} ${index} 標題`,
      "en-US": `${category} ${index} title`,
    },
    public_at: `today-${index}`,
  });

  beforeAll(async () => {
    await loadHotel(
      fixtureHotel(NEWS_HOST, (file) => {
        Object.assign(file.hotel, {
          fb: "https://www.facebook.com/guards.news",
        });
        Object.assign(file, {
          promotions: [...Array.from({ length: 12 }, (_, index) => item("announcement", index + 1)), item("attraction", 1)],
        });
      }),
    );
    await loadHotel(fixtureHotel(BARE_HOST, (file) => Object.assign(file.hotel, { fb: "", line: "", instagram: "" })));
  });

  const links = (html: string) => [...html.matchAll(/<a [^>]*href="([^"]+)"/g)].map((match) => match[1] ?? "");

  it("lists the news ten a page, newest first, with numbered pages", async () => {
    const first = await fetchAs(NEWS_HOST, "/en-US/news");
    expect(first.status).toBe(200);
    const html = await first.text();
    const listed = (page: string) =>
      [...(/<ul class="news-list">[\s\S]*?<\/ul>/.exec(page)?.[0] ?? "").matchAll(/announcement (\d+) title/g)].map((match) =>
        Number(match[1]),
      );
    const titles = listed(html);
    expect(titles).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(html).toContain('<nav class="pagination" aria-label="Pages">');
    expect(links(html)).toContain("/en-US/news?page=2");

    const second = await (await fetchAs(NEWS_HOST, "/en-US/news?page=2")).text();
    expect(listed(second)).toEqual([11, 12]);
    expect(links(second)).toContain("/en-US/news");
    expect(second).toContain('<link rel="canonical" href="http://guards-news.localhost/en-US/news?page=2"/>');
    expect(links(second)).toContain(`/en-US/event?id=${/href="\/en-US\/event\?id=(\d+)"/.exec(second)?.[1]}`);
  });

  it("a page beyond the last, or not a number, is a 404; page 1 is /news", async () => {
    expect((await fetchAs(NEWS_HOST, "/news?page=3")).status).toBe(404);
    expect((await fetchAs(NEWS_HOST, "/news?page=abc")).status).toBe(404);
    const one = await fetchAs(NEWS_HOST, "/news?page=1", {
      redirect: "manual",
    });
    expect(one.status).toBe(301);
    expect(one.headers.get("location")).toBe("/news");
  });

  it("the home page links to all news and each attraction card to its page", async () => {
    const html = await (await fetchAs(NEWS_HOST, "/en-US")).text();
    expect(links(html)).toContain("/en-US/news");
    const attraction = /<li class="card attraction-card">[\s\S]*?<\/li>/.exec(html)?.[0] ?? "";
    expect(attraction).toMatch(/<a [^>]*href="\/en-US\/event\?id=\d+"[^>]*>attraction 1 title<\/a>/);
  });

  it("the sitemap lists the news list, its pages, news items and attractions", async () => {
    const xml = await (await fetchAs(NEWS_HOST, "/sitemap.xml")).text();
    expect(xml).toContain("<loc>http://guards-news.localhost/news</loc>");
    expect(xml).toContain("<loc>http://guards-news.localhost/news?page=2</loc>");
    const home = await (await fetchAs(NEWS_HOST, "/")).text();
    for (const id of [...home.matchAll(/href="\/event\?id=(\d+)"/g)].map((match) => match[1])) {
      expect(xml).toContain(`<loc>http://guards-news.localhost/event?id=${id}</loc>`);
    }
  });

  it("the footer links only to sections the hotel has", async () => {
    const footer = (html: string) => /<footer[\s\S]*<\/footer>/.exec(html)?.[0] ?? "";
    const bare = footer(await (await fetchAs(BARE_HOST, "/en-US/about")).text());
    expect(links(bare).filter((href) => href.startsWith("/"))).toEqual(["/en-US/about"]);
    const full = footer(await (await fetchAs(NEWS_HOST, "/en-US/about")).text());
    expect(links(full)).toContain("/en-US/news");
    expect(links(full)).toContain("/en-US/follow");
  });
});
