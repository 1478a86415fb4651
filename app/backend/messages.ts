import type { Language } from "~/i18n/languages";
import { serverText, type ServerKey, type TextParams } from "~/i18n/server-text";

/** Messages of the built-in back end, in the request's language (locales/<lng>/api.json; decision 094). */
export type ApiMessageCode = ServerKey<"api">;

export function apiMessage(code: ApiMessageCode, lang: Language, params: TextParams = {}): string {
  return serverText(lang, "api", code, params);
}
