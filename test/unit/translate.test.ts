import { createInstance } from "i18next";
import { describe, expect, it } from "vitest";
import { i18nConfig } from "~/i18n/config";
import { LANGUAGES } from "~/i18n/languages";
import { NAMESPACES, resources } from "~/i18n/resources";
import { createTranslator } from "~/i18n/translate";
import { koreanParticles } from "~/i18n/korean";

/** Every `{{name}}` a message uses, filled with a recognisable value. */
function sampleValues(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map(([, name]) => [name, `<${name}>`]));
}

describe("the page translator", () => {
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
