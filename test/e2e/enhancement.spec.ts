import { expect, test } from "@playwright/test";
import { fetchText, hotelUrl, lakesideCheckout, waitForHydration } from "./helpers";

// Runs in the JavaScript-on project only (playwright.config.ts): it is about how the scripts
// arrive and what they add to the forms.

test("booking pages start their JavaScript only after the page has loaded, and hydrate", async ({ page }) => {
  const served = (await fetchText("taipei", "/en-US/hxa/booking")).body;
  expect(served.includes("data-deferred-rel"), "the page was rendered with scripts to defer").toBe(true);
  expect(/<link[^>]*\srel="modulepreload"/.test(served), "no module preload competes with the page").toBe(false);
  expect(/<script[^>]*\stype="module"/.test(served), "no module script runs before load").toBe(false);

  // Every module the page names for later: the deferred preloads (the manifest, the entry, root, the route).
  const named = [...served.matchAll(/<link rel="dns-prefetch" data-deferred-rel="modulepreload" href="([^"]+)"/g)].map(([, href]) =>
    decodeURIComponent(href!),
  );
  expect(named, "the entry, root and the booking route are among them").toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^\/build\/entry\.client-\w+\.js$/),
      expect.stringMatching(/^\/build\/root-\w+\.js$/),
      expect.stringMatching(/^\/build\/routes\/\(\$lang\)\.\$product\.booking-\w+\.js$/),
    ]),
  );
  const chunkStatuses = new Map<string, number>();
  page.on("response", (response) => {
    const path = decodeURIComponent(new URL(response.url()).pathname);
    if (path.startsWith("/build/") && path.endsWith(".js")) chunkStatuses.set(path, response.status());
  });
  await page.goto(hotelUrl("taipei", "/en-US/hxa/booking"));
  await waitForHydration(page);

  const timing = await page.evaluate(() => {
    const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const scripts = performance.getEntriesByType("resource").filter((entry) => entry.name.endsWith(".js"));
    return { load: navigation.loadEventStart, scripts: scripts.length, firstScript: Math.min(...scripts.map((entry) => entry.startTime)) };
  });
  expect(timing.firstScript, "the first script request starts after the load event").toBeGreaterThanOrEqual(timing.load);
  expect([...chunkStatuses.keys()], "every named module was fetched").toEqual(expect.arrayContaining(named));
  expect(
    [...chunkStatuses].filter(([, status]) => status !== 200),
    "every chunk answers directly, without a redirect",
  ).toEqual([]);
});

test("the client build is served with a long cache life", async () => {
  const served = (await fetchText("taipei", "/en-US/hxa/booking")).body;
  const chunk = /href="(\/build\/routes\/[^"]+\.js)"/.exec(served)?.[1];
  // The first route chunk linked is the language layout's, ($lang).
  expect(decodeURIComponent(chunk ?? ""), "a route chunk is linked").toMatch(/^\/build\/routes\/\(\$lang\)-\w+\.js$/);
  const response = await fetchText("taipei", chunk!);
  expect(response.status, "the chunk answers directly, without a redirect").toBe(200);
  expect(response.headers["cache-control"]).toContain("immutable");
});

test("a guest who types while a slow phone is starting the scripts still gets the enhanced page", async ({ page }) => {
  // Three slowed starts: the waits below are on the page's own events, so the only clock is the
  // test's limit, tripled here for a slow machine (on one core of a two-core machine: about 14 s).
  test.slow();
  // A phone about six times slower than this machine: hydration takes long enough to type into.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 6 });
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(message.text());
  });

  // The guest types into the party size while React takes over the page, and the page records
  // what happened, in order, so the test can prove the typing overlapped hydration:
  // - "react attached": React has made the document its root (hydrateRoot) and starts listening;
  // - "typed while hydrating": an input event dispatched after that, before the root's first
  //   effect marked the page hydrated. The first one is dispatched in the very next microtask, so
  //   the overlap happens on a fast machine too; more follow at every timer tick while it lasts;
  // - "hydrated" or "error: …": how the start ended. `window.__started` settles on either, so the
  //   test waits on that event, however long a slow machine takes, and a broken start fails at once.
  await page.addInitScript(() => {
    const log: string[] = [];
    const state = window as unknown as { __startLog: string[]; __started: Promise<string> };
    state.__startLog = log;
    let settle: (outcome: string) => void = () => undefined;
    state.__started = new Promise((resolve) => (settle = resolve));
    const hydrated = () => document.documentElement?.dataset.hydrated === "true";
    const reactOwnsDocument = () => Object.keys(document).some((key) => key.startsWith("__reactContainer$"));
    let attached = false;
    const type = () => {
      if (!attached || hydrated()) return;
      document.getElementById("search-adults")?.dispatchEvent(new Event("input", { bubbles: true }));
      log.push("typed while hydrating");
    };
    const addEventListener = EventTarget.prototype.addEventListener;
    EventTarget.prototype.addEventListener = function (this: EventTarget, ...args: Parameters<EventTarget["addEventListener"]>) {
      addEventListener.apply(this, args);
      if (!attached && this === document && args[0] === "input" && reactOwnsDocument()) {
        attached = true;
        log.push("react attached");
        queueMicrotask(type);
        const typing = setInterval(() => (hydrated() ? clearInterval(typing) : type()), 0);
      }
    };
    const fail = (message: string) => {
      log.push(`error: ${message}`);
      settle("error");
    };
    addEventListener.call(window, "error", (event) => fail((event as ErrorEvent).message), true);
    const consoleError = console.error.bind(console);
    console.error = (...args: unknown[]) => {
      fail(args.map(String).join(" "));
      consoleError(...args);
    };
    new MutationObserver(() => {
      if (!hydrated()) return;
      log.push("hydrated");
      settle("hydrated");
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-hydrated"] });
  });

  for (const attempt of [1, 2, 3]) {
    await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?attempt=${attempt}`));
    const outcome = await page.evaluate(() => (window as unknown as { __started: Promise<string> }).__started);
    const log = await page.evaluate(() => (window as unknown as { __startLog: string[] }).__startLog);
    const typed = log.filter((entry) => entry === "typed while hydrating").length;
    test.info().annotations.push({ type: `start ${attempt}`, description: `${typed} inputs while hydrating, then ${outcome}` });
    expect(outcome, `the page hydrated (attempt ${attempt}): ${log.filter((entry) => entry.startsWith("error")).join("; ")}`).toBe(
      "hydrated",
    );
    // The guest's typing overlapped hydration: it came after React attached and before it finished.
    expect(log.slice(0, 2), `typed while React was hydrating (attempt ${attempt})`).toEqual(["react attached", "typed while hydrating"]);
    expect(log.at(-1)).toBe("hydrated");
    await waitForHydration(page);
  }
  expect(pageErrors, "no errors, React's 'Root did not complete' included").toEqual([]);

  // The enhanced search: the results arrive without a full page load.
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  let loads = 0;
  page.on("load", () => loads++);
  await page.locator("#search-adults").fill("2");
  await page.locator(".booking-search button[type=submit]").click();
  await expect(page).toHaveURL(/adults=2/);
  await expect(page.locator(".booking-results")).toBeVisible();
  expect(loads, "the search ran in the page, without reloading it").toBe(0);
});

test("the booking page stays within the JavaScript budget of design.md", async ({ page }) => {
  const { gzipSync } = await import("node:zlib");
  // design.md: at most the framework's own JavaScript (about 90 KB gzipped) plus 15 KB of ours.
  const BUDGET = (90 + 15) * 1024;
  const served = (await fetchText("taipei", "/en-US/hxa/booking")).body;
  const scripts = new Map<string, number>();
  page.on("response", async (response) => {
    const path = new URL(response.url()).pathname;
    if (path.startsWith("/build/") && path.endsWith(".js")) scripts.set(path, gzipSync(await response.body()).length);
  });
  await page.goto(hotelUrl("taipei", "/en-US/hxa/booking"));
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  const total = [...scripts.values()].reduce((sum, bytes) => sum + bytes, 0);
  const ours = [...scripts].filter(([path]) => !path.startsWith("/build/_shared/")).reduce((sum, [, bytes]) => sum + bytes, 0);
  test.info().annotations.push({
    type: "booking JS gzipped",
    description: `${total} B in ${scripts.size} files, ${ours} B outside the shared chunks`,
  });
  const named = [...served.matchAll(/<link rel="dns-prefetch" data-deferred-rel="modulepreload" href="([^"]+)"/g)].map(([, href]) =>
    decodeURIComponent(href!),
  );
  expect(
    [...scripts.keys()].map((path) => decodeURIComponent(path)),
    "every module the page names is counted",
  ).toEqual(expect.arrayContaining(named));
  expect(total, "framework and our code together").toBeLessThanOrEqual(BUDGET);
  expect(ours, "route modules, root and entry").toBeLessThanOrEqual(15 * 1024);
});

test('a pay option changed just before "Place booking" never books an amount the page did not show', async ({ page }) => {
  // Issue 22, item 8, on a slow network: the guest picks the deposit and places the booking before
  // the new price has arrived. The price check is held (an event, not a clock) until the booking
  // is sent; the page then gives up on it, as it does for any submission overtaken by another.
  await lakesideCheckout(page, true, 246, "deposit-race@example.com");
  let bookingSent!: () => void;
  const sent = new Promise<void>((resolve) => (bookingSent = resolve));
  await page.route("**/hxa/checkout**", async (route) => {
    const body = route.request().postData() ?? "";
    if (body.includes("intent=price")) {
      await sent;
      await route.continue().catch(() => undefined);
      return;
    }
    if (body.includes("intent=order")) bookingSent();
    await route.continue();
  });
  const dueNow = page.locator(".price-summary__due dd");
  const full = (await page.locator(".price-summary__total dd").textContent()) ?? "";
  await expect(dueNow).toHaveText(full);

  await page.locator('input[name="pay_option"][value="part"]').check();
  // The amount shown for the old choice is withdrawn at once.
  await expect(dueNow).toHaveText("Working…");
  await page.getByRole("button", { name: "Place booking" }).click();

  // Booked at neither amount: the page shows the deposit, says the amount changed, and waits.
  await expect(page.getByRole("alert")).toHaveText(
    "The amount due now has changed for what you chose. Please check it below, then place the booking again.",
  );
  await expect(page.getByRole("alert")).toBeFocused();
  const depositDue = (await page.locator(".price-summary div").filter({ hasText: "Deposit" }).locator("dd").textContent()) ?? "";
  await expect(dueNow).toHaveText(depositDue);
  expect(depositDue).not.toBe(full);
  await page.getByRole("button", { name: "Place booking" }).click();
  await expect(page.getByRole("status")).toHaveText(`Amount due now: ${depositDue}`);
});

test("with JavaScript, placing a booking is one round trip: the action's answer carries the pay page", async ({ page }) => {
  // Issue 26: without JavaScript "Place booking" is two requests (the POST, then the 303's GET).
  // With it, lazy route discovery once added a /__manifest request before the POST and another
  // before the pay page's data; every route is known up front now (decision 099), and the POST's
  // answer hands the pay page's data over (decision 127).
  await lakesideCheckout(page, true, 248, "round-trips@example.com");
  // The pay page's script was preloaded once the checkout hydrated (decision 099): wait until it is in.
  await expect(page.locator('link[rel="modulepreload"][href*="pay."]').first()).toBeAttached();
  await page.waitForLoadState("networkidle");
  const requests: string[] = [];
  const scripts: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/build/")) scripts.push(url.pathname);
    if (url.pathname.startsWith("/build/") || url.pathname.startsWith("/demo/")) return;
    requests.push(`${request.method()} ${url.pathname}`);
  });
  await page.getByRole("button", { name: "Place booking" }).click();
  await expect(page).toHaveURL(/\/pay\//);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const navigation = requests.filter((entry) => !entry.endsWith("/checkout.data") || entry.startsWith("POST"));
  expect(
    requests.filter((entry) => entry.includes("__manifest")),
    "no route discovery request",
  ).toEqual([]);
  expect(navigation, "the POST only: no request for the pay page's data").toEqual([expect.stringMatching(/^POST .*\/checkout\.data$/)]);
  expect(scripts, "no script fetched after the click: the pay page's was preloaded").toEqual([]);
  // The page is the pay page the server shows for this order: the same after a reload.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment due");
  await expect(page).toHaveTitle(/^Payment due \| /);
  const shown = await page.locator("main").innerText();
  expect(shown).toContain("round-trips@example.com");
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment due");
  expect(await page.locator("main").innerText()).toBe(shown);
});

test("with JavaScript, a search is one request, as it is without", async ({ page }) => {
  await page.goto(hotelUrl("lakeside", "/en-US/hxa/booking"));
  await waitForHydration(page);
  const requests: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/build/") || url.pathname.startsWith("/demo/")) return;
    requests.push(`${request.method()} ${url.pathname}`);
  });
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/start=/);
  await expect(page.locator(".add-form").first()).toBeVisible();
  expect(requests).toEqual([expect.stringMatching(/^GET .*\/booking\.data$/)]);
});

test("the home page opened from a booking page without a reload is styled as when loaded directly", async ({ page }) => {
  // Decision 161: the content pages' rules are in a stylesheet of their own that booking pages do not load.
  const layout = () =>
    page.evaluate(() => {
      const grid = document.querySelector(".card-grid");
      const slides = document.querySelector(".hero__slides");
      return {
        grid: grid ? getComputedStyle(grid).display : null,
        slides: slides ? getComputedStyle(slides).display : null,
      };
    });
  await page.goto(hotelUrl("taipei", "/en-US"));
  const direct = await layout();
  expect(direct).toEqual({ grid: "grid", slides: "flex" });

  await page.goto(hotelUrl("taipei", "/en-US/hxa/booking"));
  await waitForHydration(page);
  expect(await layout(), "the booking page has no cards or hero").toEqual({ grid: null, slides: null });
  let loads = 0;
  page.on("load", () => (loads += 1));
  await page.locator("header").getByRole("link", { name: "Rooms" }).first().click();
  await expect(page.getByRole("heading", { name: "Our rooms" })).toBeVisible();
  expect(await layout(), "the rooms are cards in a grid under the hero, as on the page loaded directly").toEqual(direct);
  expect(loads, "the page was shown without a reload").toBe(0);
});

test("a booking page carries its own words; the first page opened from it without a reload fetches the rest once", async ({ page }) => {
  // Decision 144: the results page's HTML holds the booking words, not the checkout's, pay page's or receipt's.
  const served = (await fetchText("taipei", "/en-US/hxa/booking")).body;
  const element = /<script id="i18n-resources"[^>]*data-complete="false"[^>]*>([^<]*)<\/script>/.exec(served);
  expect(element, "the page says its words are not the whole catalogue").not.toBeNull();
  const carried = Object.keys((JSON.parse(element?.[1] ?? "{}") as { common: Record<string, string> }).common);
  expect(carried).toEqual(expect.arrayContaining(["booking.sold_out", "cart.checkout", "search.submit", "nav.home"]));
  expect(carried.filter((key) => /^(pay|receipt|checkout|order_page|home)\./.test(key))).toEqual([]);

  await page.goto(hotelUrl("taipei", "/en-US/hxa/booking"));
  await waitForHydration(page);
  let loads = 0;
  page.on("load", () => (loads += 1));
  const words: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.endsWith("/words.json")) words.push(request.url());
  });
  await page.locator("header").getByRole("link", { name: "Rooms" }).first().click();
  await expect(page.getByRole("heading", { name: "Our rooms" })).toBeVisible();
  await page.locator("header").getByRole("link", { name: "About" }).first().click();
  await expect(page).toHaveURL(/\/en-US\/about$/);
  await expect(page.getByText("Address", { exact: true }).first()).toBeVisible();
  expect(loads, "both pages were shown without a reload").toBe(0);
  expect(words, "the rest of the words, fetched once").toHaveLength(1);
});
