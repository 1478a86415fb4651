import type { ShouldRevalidateFunctionArgs } from "@remix-run/react";
import { handedOver } from "~/ui/handoff";

/**
 * For the loaders of what every page of a language shares (the language layout's: the
 * hotel, its menus, its words, the member's sign-in state): a link or a GET form to another page
 * of the same language does not ask for them again, so a search or a new page with JavaScript
 * fetches only its own data (issue 26: with JavaScript a form is never slower than without). A form
 * that posts, a change of language and a reload still do; signing in and out are full page loads
 * (OAuth) or posts. Nor does a page whose data a form's answer handed over (placing a booking,
 * `app/ui/handoff.ts`): what they hold does not change with it.
 */
export function sharedDataRevalidation({
  formMethod,
  currentParams,
  nextParams,
  nextUrl,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (currentParams.lang === nextParams.lang && handedOver(nextUrl)) return false;
  if (formMethod !== undefined && formMethod.toUpperCase() !== "GET") return defaultShouldRevalidate;
  if (currentParams.lang !== nextParams.lang) return defaultShouldRevalidate;
  return false;
}
