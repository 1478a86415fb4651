/**
 * A hotel back end that is down, too slow or answering garbage (decision 024). The built Worker
 * runs here with HOTEL_API_ORIGIN pointing at real HTTP servers that fail
 * (broken-backends.global.ts): the calls go through the Worker's own fetch, as in production.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it, vi } from "vitest";
import { HOTEL_CACHE_POLICY } from "~/platform/edge/hotel-cache.server";
import { fixtureHotel, loadHotel, text } from "./helpers";

interface Worker {
  fetch(request: Request, env: Record<string, unknown>, ctx: ExecutionContext): Promise<Response>;
}
// The built Worker, called with the bindings each test chooses (SELF has wrangler.toml's).
const built = "../../build/index.js";
const worker = ((await import(/* @vite-ignore */ built)) as { default: Worker }).default;

const backends = inject("brokenBackends");

async function get(host: string, path: string, vars: Record<string, string> = {}, init?: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`http://${host}${path}`, init), { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

const PAGES = ["/en-US", "/en-US/room/1", "/en-US/hxa/booking", "/en-US/about"];

/** A 503 the guest can read: their language, when to come back, no stack trace or file positions. */
async function expectUnavailable(response: Response, lang: string, wording: string) {
  const html = await response.text();
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
  expect(response.headers.get("content-language")).toBe(lang);
  expect(response.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9-]+$/);
  expect(text(html)).toContain(wording);
  expect(html).not.toMatch(/Error:|\.js:\d+|at \w+ \(|Network connection lost|bad_response/);
  return html;
}

describe("a back end that does not answer", () => {
  for (const [name, origin] of [
    ["closes every connection", backends.closing],
    ["answers HTML instead of JSON", backends.garbage],
  ] as const) {
    it(`${name}: every page is a 503 in the guest's language`, async () => {
      const host = `down-${name.split(" ")[0]}.localhost`;
      for (const path of PAGES) {
        await expectUnavailable(
          await get(host, path, { HOTEL_API_ORIGIN: origin }),
          "en-US",
          "Our booking system is not responding right now.",
        );
      }
      await expectUnavailable(await get(host, "/", { HOTEL_API_ORIGIN: origin }), "zh-TW", "訂房系統目前沒有回應");
      await expectUnavailable(await get(host, "/ja-JP/about", { HOTEL_API_ORIGIN: origin }), "ja-JP", "予約システムが現在応答していません");
    });
  }

  it("slower than HOTEL_API_TIMEOUT_MS: the call is cut at the timeout and the guest gets a 503", async () => {
    const started = performance.now();
    await expectUnavailable(
      await get("down-silent.localhost", "/en-US", { HOTEL_API_ORIGIN: backends.silent, HOTEL_API_TIMEOUT_MS: "200" }),
      "en-US",
      "Our booking system is not responding right now.",
    );
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("the health check still answers", async () => {
    const response = await get("down-health.localhost", "/api/health", { HOTEL_API_ORIGIN: backends.closing });
    expect(response.status).toBe(200);
  });
});

describe("hotel info the edge saw before the back end went down", () => {
  const HOST = "down-stale.localhost";

  it("names the hotel and how to reach it on the 503", async () => {
    await loadHotel(fixtureHotel(HOST));
    // Seen once while the (built-in) back end answered: hotel info is now in the edge cache.
    expect((await get(HOST, "/en-US")).status).toBe(200);
    // Long after the copy went stale, the back end is down.
    vi.setSystemTime(Date.now() + (HOTEL_CACHE_POLICY.STALE_SECONDS + 60) * 1000);
    const html = await expectUnavailable(
      await get(HOST, "/en-US", { HOTEL_API_ORIGIN: backends.closing }),
      "en-US",
      "Our booking system is not responding right now.",
    );
    expect(text(html)).toContain("Fixture Hotel");
    expect(html).toContain('href="tel:+886212345678"');
    expect(html).toContain('href="mailto:stay@fixture.example"');
  });
});

describe("errors below the layout keep the hotel's header and footer", () => {
  const HOST = "down-chrome.localhost";

  it("a page whose loader fails is a 500 inside the site, in the guest's language", async () => {
    await loadHotel(fixtureHotel(HOST));
    expect((await get(HOST, "/en-US")).status).toBe(200);
    // Hotel info is fresh in the cache; every other call is refused in a way the page does not expect.
    const response = await get(HOST, "/en-US", { HOTEL_API_ORIGIN: backends.refusing });
    const html = await response.text();
    expect(response.status).toBe(500);
    expect(html).toContain('<header class="site-header');
    expect(html).toContain('<footer class="site-footer"');
    expect(text(html)).toContain("We could not complete your request. Please try again in a moment.");
    expect(html).not.toContain("unexpected_refusal");
  });
});

describe("the request id", () => {
  it("is the cf-ray of the request, returned as x-request-id and on every log line of the request", async () => {
    const lines: unknown[][] = [];
    const spies = (["log", "warn", "error"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args) => lines.push(args)),
    );
    try {
      const ray = "8f1e2d3c4b5a6978-TPE";
      const response = await get("down-ray.localhost", "/en-US", { HOTEL_API_ORIGIN: backends.closing }, { headers: { "cf-ray": ray } });
      expect(response.status).toBe(503);
      expect(response.headers.get("x-request-id")).toBe(ray);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line[0]).toBe(`[${ray}]`);
      expect(lines.some((line) => line.some((part) => String(part).includes("Network connection lost")))).toBe(true);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it("is a random id when the request has no cf-ray", async () => {
    const first = (await get("down-ray.localhost", "/api/health")).headers.get("x-request-id");
    const second = (await get("down-ray.localhost", "/api/health")).headers.get("x-request-id");
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toMatch(/^[0-9a-f-]{36}$/);
    expect(first).not.toBe(second);
  });
});
