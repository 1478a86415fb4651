/** The desk's addresses in a language (decision 148): `/desk…` in zh-TW, `/<lang>/desk…` in the others. */
import { localizePath, type Language } from "~/i18n/languages";
import { DESK_PATH } from "~/contract/desk";

export const deskPath = (lang: Language, sub = ""): string => localizePath(`${DESK_PATH}${sub}`, lang);
