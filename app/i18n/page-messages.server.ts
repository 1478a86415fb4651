import { withUnitWords, type LodgingUnit } from "~/domain/units";
import type { Language } from "./languages";
import { resources } from "./resources";

/** A language's messages in the words of what the hotel sells (rooms, sites…); built once per language and unit. */
const unitMessages = new Map<string, (typeof resources)[Language]>();
export function messagesOf(lang: Language, unit: LodgingUnit): (typeof resources)[Language] {
  let messages = unitMessages.get(`${lang}|${unit}`);
  if (messages === undefined) unitMessages.set(`${lang}|${unit}`, (messages = withUnitWords(resources[lang], unit)));
  return messages;
}
