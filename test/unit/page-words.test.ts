import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { resources } from "~/i18n/resources";
import { SHELL_WORDS, inWordList, pickWords, type WordList } from "~/i18n/page-words";

// Decision 144: a hydrating page carries only its components' words. Here every module a hydrating
// route imports (its browser side: *.server modules never render) is read for the keys it names —
// a string that is a key, a key before its plural or unit ending, or a `prefix.${…}` template —
// and each must be among the words its page carries.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const APP = join(ROOT, "app");
const common = resources["en-US"].common;

/** Keys as components name them: without plural endings or unit forms. */
const named = new Set(
  Object.keys(common).flatMap((key) => {
    const base = key.replace(/_(zero|one|two|few|many|other)$/, "");
    return [base, base.replace(/\.(site|unit)$/, "")];
  }),
);

function resolveImport(from: string, spec: string): string | null {
  const base = spec.startsWith("~/") ? join(APP, spec.slice(2)) : spec.startsWith(".") ? resolve(dirname(from), spec) : null;
  if (base === null) return null;
  return (
    [".ts", ".tsx", "/index.ts", "/index.tsx", ""].map((ext) => base + ext).find((file) => /\.tsx?$/.test(file) && existsSync(file)) ?? null
  );
}

/** The modules a route brings to the browser: its own and every module it imports, *.server ones left out. */
function browserModules(entry: string): string[] {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop() ?? "";
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, spec] of readFileSync(file, "utf8").matchAll(/(?:import|export)\s[^;]*?from\s*["']([^"']+)["']/g)) {
      const found = resolveImport(file, spec ?? "");
      if (found && !/\.server\.tsx?$/.test(found)) todo.push(found);
    }
  }
  return [...seen];
}

/** Each key (or `prefix.` of a template) the modules name, with where. */
function keysNamed(files: string[]): Map<string, string> {
  const keys = new Map<string, string>();
  for (const file of files) {
    const source = readFileSync(file, "utf8");
    for (const [, text] of source.matchAll(/["'`]([a-z_]+(?:\.[a-z0-9_]+)*)["'`]/g)) {
      if (text && named.has(text)) keys.set(text, relative(ROOT, file));
    }
    for (const [, prefix] of source.matchAll(/`([a-z_]+(?:\.[a-z0-9_]+)*\.)\$\{/g)) {
      if (prefix && [...named].some((key) => key.startsWith(prefix))) keys.set(prefix, relative(ROOT, file));
    }
  }
  return keys;
}

const routeFile = (name: string) => join(APP, "routes", name);

/** A route module's `handle.words`, read as the module is loaded by Remix. */
async function routeWords(name: string): Promise<WordList> {
  const module = (await import(/* @vite-ignore */ routeFile(name))) as { handle?: { words?: WordList } };
  return module.handle?.words ?? [];
}

const hydrating = readdirSync(join(APP, "routes")).filter((name) => /hydrate:\s*true/.test(readFileSync(routeFile(name), "utf8")));

function uncovered(files: string[], list: WordList): string[] {
  return [...keysNamed(files)]
    .filter(([key]) => !(key.endsWith(".") ? inWordList(list, "common", `${key}x`) : inWordList(list, "common", key)))
    .map(([key, file]) => `${key} (${file})`);
}

describe("the words a hydrating page carries", () => {
  it("finds the hydrating routes", () => {
    expect(hydrating).toEqual(expect.arrayContaining(["($lang).$product.booking.tsx", "($lang).$product.checkout.tsx"]));
  });

  it("the root and the site layout use only the shell's words", () => {
    const files = [...browserModules(join(APP, "root.tsx")), ...browserModules(routeFile("($lang).tsx"))];
    expect(uncovered(files, SHELL_WORDS)).toEqual([]);
  });

  it.each(hydrating)("%s carries every key its components name", async (name) => {
    const list = [...SHELL_WORDS, ...(await routeWords(name))];
    expect(uncovered(browserModules(routeFile(name)), list)).toEqual([]);
  });

  it("the checkout carries the words of the pages its answer hands over to (pay page, order page)", async () => {
    const list = [...SHELL_WORDS, ...(await routeWords("($lang).$product.checkout.tsx"))];
    const next = ["($lang).pay.$hotelId.$orderDoc.tsx", "($lang).$product.orders.$orderDoc.tsx"].flatMap((name) =>
      browserModules(routeFile(name)),
    );
    expect(uncovered(next, list)).toEqual([]);
  });

  it("picks keys by their first segments, plural and unit forms included, and whole namespaces", () => {
    const picked = pickWords(
      { common: { "cart.rooms_one": "1", "cart.rooms.site_one": "s", cartx: "no", "checkout.title": "no" }, facility: { wifi: "Wi-Fi" } },
      ["cart", "facility:"],
    );
    expect(picked).toEqual({ common: { "cart.rooms_one": "1", "cart.rooms.site_one": "s" }, facility: { wifi: "Wi-Fi" } });
  });

  it("the booking results page carries under a third of the catalogue", async () => {
    const list = [...SHELL_WORDS, ...(await routeWords("($lang).$product.booking.tsx"))];
    const size = (messages: object) => JSON.stringify(messages).length;
    expect(size(pickWords(resources["en-US"], list))).toBeLessThan(size(resources["en-US"]) / 3);
  });
});
