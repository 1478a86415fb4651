/**
 * The challenge inside a form of the back end's own pages (sign-in, sign-up), as plain HTML: the
 * picture, the question in words, one answer field with its label, hint and error, the token, and
 * a "new challenge" button. No script. Placed after the form's own fields; the form's main button
 * must come before `newChallengeButton` so that Enter submits the form, not a new challenge.
 */
import type { Language } from "~/i18n/languages";
import { captchaText, type Challenge } from "./captcha.server";
import { escapeHtml } from "~/lib/html";

export interface ChallengeState {
  challenge: Challenge;
  /** Why it is asked (a sentence above it). */
  reason?: string;
  error?: string;
}

export function challengeFieldset(lang: Language, state: ChallengeState): string {
  const t = (key: Parameters<typeof captchaText>[1]) => escapeHtml(captchaText(lang, key));
  const described = ["captcha-question", "captcha-hint", state.error ? "captcha-error" : ""].filter(Boolean).join(" ");
  return `<fieldset class="captcha"><legend>${t("legend")}</legend>${state.reason ? `<p>${escapeHtml(state.reason)}</p>` : ""}<p class="hint">${t("intro")}</p><img src="${escapeHtml(
    state.challenge.picture,
  )}" alt="${t("picture_alt")}" width="220" height="72"><p id="captcha-question"><span class="hint">${t("question_label")}:</span> ${escapeHtml(state.challenge.question)}</p><label for="f-captcha">${t(
    "field",
  )}</label><p class="hint" id="captcha-hint">${t("hint")}</p><input id="f-captcha" name="captcha_answer" type="text" inputmode="text" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="32" required aria-describedby="${described}"${
    state.error ? ' aria-invalid="true"' : ""
  }>${state.error ? `<p class="field-error" id="captcha-error">${escapeHtml(state.error)}</p>` : ""}<input type="hidden" name="captcha_token" value="${escapeHtml(state.challenge.token)}"></fieldset>`;
}

/** The "new challenge" button: a submit of the same form that only draws a new challenge, keeping what was typed. */
export function newChallengeButton(lang: Language): string {
  return `<button type="submit" name="captcha_new" value="1" class="secondary" formnovalidate>${escapeHtml(captchaText(lang, "new"))}</button>`;
}
