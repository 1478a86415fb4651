import { expect, test, type Page } from "@playwright/test";
import { apiCall, hotelUrl, taipeiDay, waitForHydration } from "./helpers";

/**
 * A member's whole visit in Chromium (without JavaScript too where it books, decision 145): sign
 * up, sign in through the built-in account service, member prices, a booking with points and the
 * members-only discount, the order in My orders, sign out; and spec §8's failure path at the
 * callback.
 */

async function signOut(page: Page) {
  await page.locator(".member-menu summary").click();
  await page.locator('.member-menu button[type="submit"]').click();
  await expect(page.locator(".member-menu__sign-in")).toBeVisible();
}

test("a guest creates a member account from the sign-in page, finishes it by the emailed link and signs in", async ({
  page,
  javaScriptEnabled,
}) => {
  const email = `new-${javaScriptEnabled ? "js" : "nojs"}-${Date.now()}@example.com`;
  await page.goto(hotelUrl("taipei", "/en-US/facilities"));
  await page.locator(".member-menu__sign-in").click();
  await expect(page.locator("h1")).toHaveText("Member sign-in");
  await page.getByRole("link", { name: "No account yet? Create one" }).click();
  await expect(page.locator("h1")).toHaveText("Create a member account");
  await page.getByLabel("Last name").fill("Chen");
  await page.getByLabel("First name").fill("Ann");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone").fill("0912 000 111");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.locator(".field-error")).toHaveText("The password needs at least 8 characters.");
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await page.getByLabel("Password").fill("ann-password-1");
  await page.getByRole("button", { name: "Create account" }).click();
  // Nobody is a member until the emailed link is followed (decision 071).
  await expect(page.locator("h1")).toHaveText("Check your email");
  await expect(page.getByRole("status")).toContainText(`We sent a message to ${email}.`);
  await page.goto(hotelUrl("taipei", `/dev/outbox?to=${encodeURIComponent(email)}`));
  await page.locator(`article[data-kind="account_signup"] a[href*="/account/signup/confirm"]`).first().click();
  await page.getByRole("button", { name: "Finish creating my account" }).click();
  await expect(page.locator("h1")).toHaveText("Your account is ready");
  await page.getByRole("link", { name: "Go to the website and sign in" }).click();
  await expect(page.locator("h1")).toHaveText("Member sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("ann-password-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.goto(hotelUrl("taipei", "/en-US/facilities"));
  await expect(page.locator(".member-menu summary")).toHaveText("Signed in as Ann Chen");
  await signOut(page);
  await expect(page).toHaveURL(hotelUrl("taipei", "/en-US/facilities"));
});

test("a member signs in, books with points and the members-only discount, finds it in My orders and signs out @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  const offset = javaScriptEnabled ? 90 : 95;
  const booking = `/en-US/hxa/booking?start=${taipeiDay(offset)}&end=${taipeiDay(offset + 1)}&adults=2`;
  await page.goto(hotelUrl("taipei", booking));
  await expect(page.locator(".booking-results")).not.toContainText("Your member price");

  // Sign in: back on the same booking page afterwards, with member prices.
  await page.locator(".member-menu__sign-in").click();
  await expect(page.locator("h1")).toHaveText("Member sign-in");
  await page.getByLabel("Email").fill("member@portico.example");
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("The email or password is not correct.");
  await page.getByLabel("Password").fill("portico-demo-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(hotelUrl("taipei", booking));
  await expect(page.locator(".member-menu summary")).toHaveText("Signed in as Mei Lin");
  await expect(page.locator(".booking-results").first()).toContainText("Your member price");

  // Book a member-price plan with points and the members-only discount.
  if (javaScriptEnabled) await waitForHydration(page);
  const memberPlan = page
    .locator(".booking-results .add-form")
    .filter({ has: page.locator("xpath=ancestor::*[contains(., 'Your member price')][1]") })
    .first();
  await memberPlan.locator("button[type=submit]").click();
  await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
  await page.locator(".booking-cart a.button").click();
  // The profile fills the booker before any price check.
  await expect(page.locator("#booker_last_name")).toHaveValue("Lin");
  await expect(page.locator("#booker_email")).toHaveValue("member@portico.example");
  await page.locator('input[name="member_promotion"]').check();
  await page.locator("#points").fill("100");
  await page.locator('button[name="intent"][value="price"]').click();
  await expect(page.locator(".price-summary")).toContainText("Members-only discount");
  await expect(page.locator(".price-summary")).toContainText("Points");
  await page.locator("#occupant_name_0").fill("Mei Lin");
  await page.locator('input[name="payment"][value="8:remittance"]').check();
  await page.locator('button[name="intent"][value="order"]').click();
  await expect(page).toHaveURL(/\/redirect\/receipt\/(PT\d{6}-[A-Z0-9]{6})\?valid_hash=/);
  const orderDoc = /receipt\/([^?]+)/.exec(page.url())?.[1] ?? "";

  // The confirmation email names the points and the members-only discount on lines of their own,
  // and the lines it lists add up to its total (issue 37 item 9).
  await page.goto(hotelUrl("taipei", `/dev/outbox?to=${encodeURIComponent("member@portico.example")}`));
  const mail = page.locator('article[data-kind="order_confirmation"]').filter({ hasText: orderDoc });
  await expect(mail.locator("pre")).toContainText("Points (100 pts): −NT$100");
  await expect(mail.locator("pre")).toContainText("Members-only discount: −NT$");
  const lines = ((await mail.locator("pre").textContent()) ?? "").split("\n");
  const from = lines.findIndex((line) => line.startsWith("Rooms: "));
  const to = lines.findIndex((line) => line.startsWith("Total: "));
  const amount = (line: string) => {
    const found = /(−?)NT\$([\d,]+)(?!.*NT\$)/.exec(line);
    return found ? (found[1] ? -1 : 1) * Number((found[2] ?? "").replaceAll(",", "")) : 0;
  };
  expect(to).toBeGreaterThan(from);
  expect(lines.slice(from, to).reduce((sum, line) => sum + amount(line), 0)).toBe(amount(lines[to] ?? ""));
  await page.goBack();

  // My orders: the new order first, linking to its page.
  await page.locator(".member-menu summary").click();
  await page.getByRole("link", { name: "My orders" }).click();
  await expect(page.locator("h1")).toHaveText("My orders");
  await expect(page.locator(".my-orders__item").first()).toHaveAttribute("data-order", orderDoc);
  await page.locator("#status").selectOption("cancelled");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.locator(`[data-order="${orderDoc}"]`)).toHaveCount(0);
  await page.locator("#status").selectOption("");
  await page.getByRole("button", { name: "Show" }).click();
  await page.getByRole("link", { name: `View booking ${orderDoc}` }).click();
  await expect(page).toHaveURL(hotelUrl("taipei", `/en-US/hxa/orders/${orderDoc}`));
  await expect(page.locator("h1")).toHaveText("Your booking");
  await expect(page.locator("main")).toContainText(orderDoc);

  await signOut(page);
  await page.goto(hotelUrl("taipei", "/en-US/hxa/orders"));
  await expect(page.locator("h1")).toHaveText("Member sign-in");
});

test("spec §8: a callback that does not belong to a sign-in under way shows the error and signs nobody in", async ({ page }) => {
  await page.goto(hotelUrl("taipei", "/en-US/about"));
  await page.goto(
    hotelUrl(
      "taipei",
      "/hxa/oauth/callback?code=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA&state=BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB",
    ),
  );
  await expect(page.getByRole("alert")).toContainText("登入未完成");
  await expect(page.locator(".member-menu__sign-in")).toBeVisible();
  await page.goto(hotelUrl("taipei", "/en-US/hxa/oauth/callback?error=exchange"));
  await expect(page.getByRole("alert")).toHaveText("There was an error logging into the system, please try again later.");
});

test("an address outside the site given as the return address ends on the site", async ({ page }) => {
  for (const back of ["//evil.com", "/\\evil.com", "https:evil.com", "%2F%2Fevil.com", "javascript:alert(1)"]) {
    await page.goto(hotelUrl("taipei", `/en-US/hxa/login?back=${encodeURIComponent(back)}`));
    if (await page.getByLabel("Password").isVisible()) {
      await page.getByLabel("Email").fill("traveler@portico.example");
      await page.getByLabel("Password").fill("portico-demo-2");
      await page.getByRole("button", { name: "Sign in" }).click();
    }
    await expect(page).toHaveURL(hotelUrl("taipei", "/en-US"));
  }
});

test("signed in on a phone, the header fits the screen and still names the member", async ({ page }) => {
  await page.setViewportSize({ width: 412, height: 823 });
  await page.goto(hotelUrl("lakeside", "/en-US/about"));
  await page.locator(".member-menu__sign-in").click();
  await page.getByLabel("Email").fill("member@portico.example");
  await page.getByLabel("Password").fill("portico-demo-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator(".member-menu summary")).toContainText("Signed in as");
  for (const path of ["/en-US/about", "/en-US/hxa/booking", "/en-US/hxa/orders", "/ja-JP/hxa/orders", "/hxa/orders"]) {
    await page.goto(hotelUrl("lakeside", path));
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
    expect(widths.page, `${path} is no wider than the phone`).toBeLessThanOrEqual(widths.screen);
    await expect(page.locator(".member-menu summary")).toBeVisible();
    await expect(page.locator(".site-header__book")).toBeInViewport();
  }
});

test("a link on another site to the account service's JSONP logout signs nobody out; the same link on the hotel's own origin does (issue 22 item 16)", async ({
  page,
}) => {
  const booking = `/en-US/hxa/booking?start=${taipeiDay(100)}&end=${taipeiDay(101)}&adults=2`;
  const logout = hotelUrl("taipei", "/account/logout/json?callback=done");
  const bait = `<!doctype html><html lang="en"><title>Win a free night</title><a href="${logout}">Claim your prize</a></html>`;
  // Two pages with the same link: one on another site, one on the hotel's own origin (as its own script would be).
  await page.route("http://evil.example/**", (route) => route.fulfill({ contentType: "text/html", body: bait }));
  await page.route(hotelUrl("taipei", "/own-page-with-a-link"), (route) => route.fulfill({ contentType: "text/html", body: bait }));

  await page.goto(hotelUrl("taipei", `/en-US/hxa/login?back=${encodeURIComponent(booking)}`));
  await page.getByLabel("Email").fill("traveler@portico.example");
  await page.getByLabel("Password").fill("portico-demo-2");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(hotelUrl("taipei", booking));
  await expect(page.locator(".member-menu summary")).toHaveText(/^Signed in as /);

  // Chromium follows the link from another site with the session cookie (SameSite=Lax lets a link through).
  await page.goto("http://evil.example/");
  const refused = page.waitForResponse(logout);
  await page.getByRole("link", { name: "Claim your prize" }).click();
  const response = await refused;
  expect(response.status()).toBe(403);
  // Still signed in: the booking page (which asks the back end about the token) keeps the member, and signing in again asks for no password.
  await page.goto(hotelUrl("taipei", booking));
  await page.goto(hotelUrl("taipei", "/en-US/about"));
  await expect(page.locator(".member-menu summary")).toHaveText(/^Signed in as /);
  await page.goto(hotelUrl("taipei", "/en-US/hxa/login?back=/en-US/about"));
  await expect(page).toHaveURL(hotelUrl("taipei", "/en-US/about"));

  // The same link on the hotel's own origin is the spec's JSONP logout: it signs out.
  await page.goto(hotelUrl("taipei", "/own-page-with-a-link"));
  const accepted = page.waitForResponse(logout);
  await page.getByRole("link", { name: "Claim your prize" }).click();
  expect((await accepted).status()).toBe(200);
  // The session's tokens ended with it: the booking page finds them refused, and the next page shows a guest.
  await page.goto(hotelUrl("taipei", booking));
  await page.goto(hotelUrl("taipei", "/en-US/about"));
  await expect(page.locator(".member-menu__sign-in")).toBeVisible();
});

// Issue 37 item 16: the demo city hotel's "Members-only Rate" was offered to every guest at the
// normal price. A members-only plan is the member's alone (decision 037): a guest never sees it,
// and a guest who posts its form anyway (or calls the order API) is refused.
test("a guest is neither shown nor sold the Members-only Rate; a signed-in member is offered it at the member price @js-matters", async ({
  page,
  browser,
  javaScriptEnabled,
}) => {
  const offset = javaScriptEnabled ? 96 : 98;
  const start = taipeiDay(offset);
  const end = taipeiDay(offset + 1);
  const booking = `/en-US/hxa/booking?start=${start}&end=${end}&adults=2`;

  // The member sees the plan, labelled, at the member price.
  const memberContext = await browser.newContext({ javaScriptEnabled });
  const member = await memberContext.newPage();
  await member.goto(hotelUrl("taipei", `/en-US/hxa/login?back=${encodeURIComponent(booking)}`));
  await member.getByLabel("Email").fill("member@portico.example");
  await member.getByLabel("Password").fill("portico-demo-1");
  await member.getByRole("button", { name: "Sign in" }).click();
  await expect(member).toHaveURL(hotelUrl("taipei", booking));
  const memberPlan = member
    .locator(".booking-results .plan")
    .filter({ has: member.locator(".plan__name", { hasText: /^Members-only Rate$/ }) });
  await expect(memberPlan.first()).toBeVisible();
  await expect(memberPlan.first().locator(".plan__meta")).toContainText("Members-only plan");
  await expect(memberPlan.first().locator(".plan__price--member")).toContainText("Your member price");
  const [, roomId, planId] = /^plan-(\d+)-(\d+)$/.exec((await memberPlan.first().getAttribute("id")) ?? "") ?? [];
  expect(planId).toBeTruthy();
  await memberContext.close();

  // The guest: not on the page.
  await page.goto(hotelUrl("taipei", booking));
  await expect(page.locator(".booking-results .plan").first()).toBeVisible();
  await expect(page.locator(".booking-results")).not.toContainText("Members-only Rate");
  await expect(page.locator(".booking-results")).not.toContainText("Members-only plan");

  // The guest posts the plan's "Add" form anyway (another plan's form, its ids changed): refused,
  // and the booking stays empty.
  if (javaScriptEnabled) await waitForHydration(page);
  const form = page.locator(".booking-results .add-form").first();
  await form.evaluate(
    (node, ids) => {
      node.querySelector<HTMLInputElement>('input[name="room_class_id"]')!.value = ids.roomId;
      node.querySelector<HTMLInputElement>('input[name="proposal_id"]')!.value = ids.planId;
    },
    { roomId: roomId!, planId: planId! },
  );
  await form.locator("button[type=submit]").click();
  await expect(page.locator("#booking-alert")).toHaveText("This plan is not available for these dates, please choose again.");
  await expect(page.locator(".booking-cart__empty")).toHaveText("No rooms chosen yet.");
  await page.goto(hotelUrl("taipei", booking));
  await expect(page.locator(".booking-cart__empty")).toHaveText("No rooms chosen yet.");

  // The order API refuses it without a member: "Please sign in as a member first".
  const order = await apiCall<{ msg: { code: string; extrainfo?: { field?: string } } }>("POST", "/api/ota/order/personal-new?lang=en-US", {
    domain: "taipei.localhost",
    booker_first_name: "Mei",
    booker_last_name: "Lin",
    booker_phone: "0912345678",
    booker_email: `guest-members-only-${offset}@example.com`,
    booking_from: "HXA",
    check_in_day: start,
    check_out_day: end,
    pay_way: "remittance",
    payment_vendor: 8,
    pay_option: "all",
    orders: [{ room_class_id: Number(roomId), proposal_id: Number(planId), num: 1, occupant_name: "Mei Lin" }],
    adults_count: 2,
    children_count: 0,
  });
  expect(order.status).toBe(401);
  expect(order.json.msg.code).toBe("member_only");
});
