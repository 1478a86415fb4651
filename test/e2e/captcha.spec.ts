import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { answerQuestion } from "../captcha-question";
import { hotelUrl } from "./helpers";

/**
 * The captcha as a guest meets it (decision 070), in Chromium (the sign-in page ships no
 * JavaScript: one run, decision 145): three wrong passwords bring a challenge into the same
 * sign-in form; a wrong answer is refused with a clear message and a new challenge; the question's
 * answer, read as text, passes and signs in.
 */

const CASES = [
  {
    lang: "en-US",
    hotel: "taipei",
    email: "traveler@portico.example",
    password: "portico-demo-2",
    name: "Traveler",
    t: {
      heading: "Member sign-in",
      email: "Email",
      password: "Password",
      signIn: "Sign in",
      credentials: "The email or password is not correct.",
      legend: "Confirm you are a person",
      answer: "Your answer",
      wrong: "That answer did not match. Here is a new challenge; please try again.",
      newChallenge: "Show a new challenge",
      signedIn: /Signed in as/,
    },
  },
  {
    lang: "ja-JP",
    hotel: "lakeside",
    email: "member@portico.example",
    password: "portico-demo-1",
    name: "",
    t: {
      heading: "会員ログイン",
      email: "メールアドレス",
      password: "パスワード",
      signIn: "ログイン",
      credentials: "メールアドレスまたはパスワードが正しくありません。",
      legend: "人による操作であることの確認",
      answer: "回答",
      wrong: "回答が一致しませんでした。新しい問題を表示しましたので、もう一度お試しください。",
      newChallenge: "別の問題を表示",
      signedIn: /ログイン中/,
    },
  },
] as const;

async function question(page: Page): Promise<string> {
  const text = (await page.locator("#captcha-question").textContent()) ?? "";
  return text.replace(/^[^:]*:\s*/, "").trim();
}

for (const c of CASES) {
  test(`in ${c.lang}, failed sign-ins bring a challenge into the form; failed once, passed, the guest signs in`, async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.goto(hotelUrl(c.hotel, `/${c.lang}/about`));
    await page.locator(".member-menu__sign-in").click();
    await expect(page.locator("h1")).toHaveText(c.t.heading);
    await page.getByLabel(c.t.email).fill(c.email);
    for (let i = 0; i < 3; i++) {
      await page.getByLabel(c.t.password, { exact: true }).fill(`wrong-password-${i}`);
      await page.getByRole("button", { name: c.t.signIn, exact: true }).click();
      await expect(page.getByRole("alert")).toHaveText(c.t.credentials);
    }
    // The challenge, inside the same form, with the email kept.
    const challenge = page.getByRole("group", { name: c.t.legend });
    await expect(challenge).toBeVisible();
    await expect(challenge.getByRole("img")).toBeVisible();
    await expect(page.getByLabel(c.t.email)).toHaveValue(c.email);
    if (javaScriptEnabled) {
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((violation) => `${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`),
      ).toEqual([]);
    }

    // The new-challenge button: another question, the email still there.
    const first = await question(page);
    const firstPicture = await challenge.getByRole("img").getAttribute("src");
    await page.getByRole("button", { name: c.t.newChallenge }).click();
    await expect(challenge.getByRole("img")).not.toHaveAttribute("src", firstPicture ?? "");
    await expect(page.getByLabel(c.t.email)).toHaveValue(c.email);
    expect(typeof first).toBe("string");

    // A wrong answer, with the right password: refused, a clear message, a new challenge.
    await page.getByLabel(c.t.password, { exact: true }).fill(c.password);
    await page.getByLabel(c.t.answer, { exact: true }).fill(String(Number(answerQuestion(await question(page))) + 1));
    await page.getByRole("button", { name: c.t.signIn, exact: true }).click();
    await expect(page.locator("#captcha-error")).toHaveText(c.t.wrong);
    await expect(page.getByLabel(c.t.answer, { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel(c.t.email)).toHaveValue(c.email);

    // The question's answer, as a guest who reads it gives it: signed in, back on the page.
    await page.getByLabel(c.t.password, { exact: true }).fill(c.password);
    await page.getByLabel(c.t.answer, { exact: true }).fill(answerQuestion(await question(page)));
    await page.getByRole("button", { name: c.t.signIn, exact: true }).click();
    await expect(page).toHaveURL(hotelUrl(c.hotel, `/${c.lang}/about`));
    await expect(page.locator(".member-menu summary")).toHaveText(c.t.signedIn);
  });
}
