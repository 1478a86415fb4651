import { readFileSync } from "node:fs";
import { createInstance } from "i18next";
import { describe, expect, it } from "vitest";
import { i18nConfig } from "~/i18n/config";
import { LANGUAGES } from "~/i18n/languages";
import { NAMESPACES, resources } from "~/i18n/resources";
import { createTranslator } from "~/i18n/translate";
import { koreanParticles } from "~/i18n/korean";
import { SERVER_NAMESPACES, serverText } from "~/i18n/server-text";

/** Every `{{name}}` a message uses, filled with a recognisable value. */
function sampleValues(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map(([, name]) => [name, `<${name}>`]));
}

describe("the pages' small translator, and the server's text through its code", () => {
  it.each(LANGUAGES)("renders every key of %s exactly as i18next does, plurals included", async (lang) => {
    const i18n = createInstance().use(koreanParticles);
    await i18n.init({ ...i18nConfig, lng: lang, ns: [...NAMESPACES], resources });
    const reference = i18n.getFixedT(lang);
    const t = createTranslator(lang, resources[lang]);
    for (const ns of NAMESPACES) {
      const keys = new Set(Object.keys(resources[lang][ns]).map((key) => key.replace(/_(zero|one|two|few|many|other)$/, "")));
      for (const key of keys) {
        const text = Object.entries(resources[lang][ns])
          .filter(([name]) => name === key || name.startsWith(`${key}_`))
          .map(([, value]) => value)
          .join(" ");
        const values = sampleValues(text);
        for (const count of [undefined, 0, 1, 2, 5, 21]) {
          const options = { ns, ...values, ...(count === undefined ? {} : { count }) };
          expect(t(key, options), `${lang} ${ns}:${key} count=${count}`).toBe(reference(key, options));
        }
      }
    }
  });

  it.each(LANGUAGES)("gives every key of every server locale file in %s exactly as i18next does, given values or none", async (lang) => {
    // The settings the server's own i18next instance had (decision 094): values only through
    // `replace`, a placeholder without a value reading as nothing.
    const files = Object.fromEntries(
      SERVER_NAMESPACES.map((ns) => [ns, JSON.parse(readFileSync(new URL(`../../locales/${lang}/${ns}.json`, import.meta.url), "utf8"))]),
    ) as Record<string, Record<string, string>>;
    const i18n = createInstance().use(koreanParticles);
    await i18n.init({
      ...i18nConfig,
      lng: lang,
      ns: [...SERVER_NAMESPACES],
      resources: { [lang]: files },
      missingInterpolationHandler: () => "",
    });
    for (const ns of SERVER_NAMESPACES) {
      const reference = i18n.getFixedT(lang, ns);
      for (const [key, text] of Object.entries(files[ns] ?? {})) {
        for (const values of [sampleValues(text), {}, { ...sampleValues(text), count: 2, lng: "ja-JP", ns: "common" }]) {
          expect(serverText(lang, ns, key as never, values), `${lang} ${ns}:${key} ${JSON.stringify(values)}`).toBe(
            reference(key, { replace: values }),
          );
        }
      }
    }
  });

  it("falls back to the default value, then to the key, and leaves unknown placeholders alone", () => {
    const t = createTranslator("en-US", { common: { hello: "Hello {{name}}, {{other}}" } });
    expect(t("hello", { name: "Mei" })).toBe("Hello Mei, {{other}}");
    expect(t("wifi", { ns: "facility", defaultValue: "wifi" })).toBe("wifi");
    expect(t("missing.key")).toBe("missing.key");
  });

  it("chooses English singular and plural by count", () => {
    const t = createTranslator("en-US", resources["en-US"]);
    expect(t("booking.rooms_left", { count: 1 })).toBe("Only 1 room left");
    expect(t("booking.rooms_left", { count: 4 })).toBe("4 rooms left");
  });
});
