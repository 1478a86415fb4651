import js from "@eslint/js";
import importPlugin from "eslint-plugin-import";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import portico from "./scripts/eslint-rules/type-import-cycle.js";

/**
 * The only modules of app/ that may import the built-in back end (app/backend/): the Worker entry
 * wiring, which mounts it and hands it to the API client as the in-process transport. Everything
 * else reaches the back end through the API client (docs/decisions/025-import-boundaries.md).
 */
export const BACKEND_WIRING = ["app/worker/**"];

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
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/backend/**", ...BACKEND_WIRING],
    rules: {
      "import/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: "./app",
              from: "./app/backend",
              message: "The site reaches the back end only through the API client (~/contract/client); see decision 025.",
            },
          ],
        },
      ],
    },
  },
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
