import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "~/i18n/languages";

const root = new URL("../../locales/", import.meta.url);
const namespaces = readdirSync(new URL("zh-TW/", root)).filter((name) => name.endsWith(".json"));

function keys(lang: string, namespace: string): Record<string, string> {
  return JSON.parse(readFileSync(new URL(`${lang}/${namespace}`, root), "utf8"));
}

describe("translations", () => {
  it.each(namespaces)("%s has the same keys, all non-empty, in all five languages", (namespace) => {
    const reference = Object.keys(keys("zh-TW", namespace)).sort();
    for (const lang of LANGUAGES) {
      const entries = keys(lang, namespace);
      expect(Object.keys(entries).sort(), `${lang}/${namespace}`).toEqual(reference);
      for (const [key, value] of Object.entries(entries)) expect(value.trim(), `${lang}/${namespace}: ${key}`).not.toBe("");
    }
  });

  it("has no namespace that exists in one language only", () => {
    for (const lang of LANGUAGES) {
      expect(readdirSync(new URL(`${lang}/`, root)).filter((name) => name.endsWith(".json")).sort()).toEqual(
        [...namespaces].sort(),
      );
    }
  });
});
