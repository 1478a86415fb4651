import js from "@eslint/js";
import importPlugin from "eslint-plugin-import";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import portico from "./scripts/eslint-rules/type-import-cycle.js";

/**
 * The folders of app/ and what each may import: decision 089's table, kept by `import/no-restricted-paths`
 * (decision 141). Written once, here; the zones below are generated from it. A folder always imports its
 * own modules; an import of any other folder of app/ not in its row is a lint error, a type-only import
 * as much as a value. An entry "folder/module.ts" allows that one module of a folder, and says why;
 * "folder:types" allows the folder's types only (`import type`). `(root)` is Remix's root route and
 * entries, app/*.tsx.
 */
export const MAY_IMPORT = {
  // The Worker's pipeline, step by step: it wires everything, and is the only wiring of the back end
  // (it mounts it and hands it to the API client as the in-process transport; decision 025).
  worker: ["(root)", "routes", "features", "ui", "documents", "layouts", "platform", "contract", "domain", "lib", "i18n", "backend"],
  "(root)": ["ui", "platform", "contract", "domain", "lib", "i18n"],
  routes: ["features", "ui", "documents", "layouts", "platform", "contract", "domain", "lib", "i18n"],
  features: ["ui", "documents", "layouts", "platform", "contract", "domain", "lib", "i18n"],
  // Of platform/, types only: the site data's SiteData, which the ($lang) layout loads.
  ui: ["layouts", "platform:types", "contract", "domain", "lib", "i18n"],
  platform: ["layouts", "contract", "domain", "lib", "i18n"],
  // What the site and the back end both print: the confirmation PDF, the emails' words, the fonts.
  documents: [
    "contract",
    "domain",
    "lib",
    "i18n",
    // The fonts and logo loader warns through the request's logger (its type only).
    "platform/log.server.ts",
  ],
  // The page and booking layouts: codes, designs, palettes, theme stylesheets.
  layouts: ["lib"],
  contract: [
    "domain",
    "lib",
    // The API contract speaks the site's language codes (a `lang` is one of LANGUAGES); the translators stay out.
    "i18n/languages.ts",
  ],
  domain: ["lib", "i18n"],
  lib: [],
  i18n: ["domain", "lib"],
  // The built-in back end, by capability: never the site's routes, features or components.
  backend: ["documents", "layouts", "platform", "contract", "domain", "lib", "i18n"],
};

/** Where each folder of the table is, for the zones (the root's modules are the files directly in app/). */
const zonePath = (folder) => (folder === "(root)" ? "./app/*.{ts,tsx}" : `./app/${folder}`);
const zoneName = (folder) => (folder === "(root)" ? "app/*.tsx (the root route and entries)" : `app/${folder}/`);
const BACKEND_MESSAGE = "The site reaches the back end only through the API client (~/contract/client); see decisions 025 and 141.";

const TYPES = ":types";
/** The folders whose values and types `target` may import (a "folder:types" entry counts here; see TYPES_ONLY). */
const mayImport = (target) => MAY_IMPORT[target].map((entry) => entry.replace(TYPES, ""));

/** One zone for each folder a folder may not import, or may import only some modules of. */
export const BOUNDARY_ZONES = Object.entries(MAY_IMPORT).flatMap(([target, allowed]) =>
  Object.keys(MAY_IMPORT)
    .filter((from) => from !== target && !mayImport(target).includes(from))
    .map((from) => {
      const only = allowed.filter((entry) => entry.startsWith(`${from}/`)).map((entry) => entry.slice(from.length + 1));
      const message =
        from === "backend"
          ? BACKEND_MESSAGE
          : `${zoneName(target)} may import ${allowed.join(", ") || "nothing of app/ but itself"} (decisions 089, 141).`;
      return { target: zonePath(target), from: zonePath(from), ...(only.length > 0 ? { except: only } : {}), message };
    }),
);

/** For each "folder:types" entry, a config that refuses a value import of that folder (by `~/` or a relative path). */
const TYPES_ONLY = Object.entries(MAY_IMPORT).flatMap(([target, allowed]) =>
  allowed
    .filter((entry) => entry.endsWith(TYPES))
    .map((entry) => {
      const from = entry.slice(0, -TYPES.length);
      return {
        files: [target === "(root)" ? "app/*.{ts,tsx}" : `app/${target}/**/*.{ts,tsx}`],
        rules: {
          "@typescript-eslint/no-restricted-imports": [
            "error",
            {
              patterns: [
                {
                  group: [`~/${from}/**`, `../${from}/**`, `../../${from}/**`, `../../../${from}/**`],
                  allowTypeImports: true,
                  message: `${zoneName(target)} may import the types of app/${from}/, not its values (decisions 089, 141).`,
                },
              ],
            },
          ],
        },
      };
    }),
);

/** Workers-only types the pure booking rules must not depend on. */
const WORKERS_TYPES = [
  "D1Database",
  "D1PreparedStatement",
  "D1Result",
  "D1DatabaseSession",
  "KVNamespace",
  "R2Bucket",
  "DurableObjectNamespace",
  "DurableObjectState",
  "ExecutionContext",
  "ExportedHandler",
  "Fetcher",
  "ScheduledController",
  "ScheduledEvent",
];
const PURE_MESSAGE = "app/domain/ holds the pure booking rules: no Remix, no Workers, no network (decision 025).";

export default tseslint.config(
  {
    ignores: [
      "build/",
      "public/build/",
      "bench/bare/build/",
      "bench/bare/public/build/",
      "bench/shape/build/",
      "bench/shape/public/build/",
      "bench/shape/app/generated/",
      ".wrangler/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
      ".cache/",
      ".tmp/",
      "bench-results/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { react, "react-hooks": reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    settings: { react: { version: "18.3" } },
    rules: {
      ...react.configs.recommended.rules,
      ...react.configs["jsx-runtime"].rules,
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "react/prop-types": "off",
    },
  },
  { files: ["**/*.{js,mjs}"], languageOptions: { globals: globals.node } },

  // Import boundaries of app/ (decision 025): resolved through tsconfig, so `~/` and relative paths count alike.
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { import: importPlugin, portico },
    settings: {
      "import/resolver": { typescript: { project: "./tsconfig.json" } },
      "import/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import/extensions": [".ts", ".tsx", ".js", ".jsx"],
    },
    rules: {
      // No module of app/ may reach itself again through its imports (type-only imports included).
      "import/no-cycle": ["error", { ignoreExternal: true }],
      // import/no-cycle skips type-only imports; this one reports the cycles that pass through them.
      "portico/type-import-cycle": ["error", { root: "app", tsconfig: "tsconfig.json" }],
    },
  },
  {
    // Each folder of app/ imports only what its row of MAY_IMPORT allows (decisions 025, 089, 141).
    files: ["app/**/*.{ts,tsx}"],
    rules: { "import/no-restricted-paths": ["error", { zones: BOUNDARY_ZONES }] },
  },
  ...TYPES_ONLY,
  {
    // The ($lang) layout's data is read through one hook: useSite() (or SITE_ROUTE_ID) from ~/ui/site-data.
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/ui/site-data.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "Literal[value='routes/($lang)']",
          message: "Read the site data with useSite() (or match SITE_ROUTE_ID) from ~/ui/site-data.",
        },
      ],
    },
  },
  {
    files: ["app/domain/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["@remix-run/*"], message: PURE_MESSAGE },
            { group: ["cloudflare:*", "@cloudflare/*"], message: PURE_MESSAGE },
          ],
        },
      ],
      "no-restricted-globals": ["error", { name: "fetch", message: PURE_MESSAGE }, { name: "caches", message: PURE_MESSAGE }],
      "no-restricted-properties": [
        "error",
        { object: "globalThis", property: "fetch", message: PURE_MESSAGE },
        { object: "self", property: "fetch", message: PURE_MESSAGE },
        { object: "window", property: "fetch", message: PURE_MESSAGE },
      ],
      "@typescript-eslint/no-restricted-types": [
        "error",
        { types: Object.fromEntries(WORKERS_TYPES.map((name) => [name, { message: PURE_MESSAGE }])) },
      ],
    },
  },
);
