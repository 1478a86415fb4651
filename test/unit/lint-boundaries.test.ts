/**
 * The import boundaries of app/ (decisions 025, 141) are enforced by `npm run lint`: each rule is
 * shown to fire on fixture code of this test's own, laid out as a small project in a temporary
 * directory (app/ and a tsconfig with the `~/` alias) and linted with the repository's
 * eslint.config.js as if at those app paths. Nothing is written into the real app/, nor is its code
 * read: splitting or rewriting a module of the tree changes nothing here. Linting the real tree is
 * `npm run lint`'s job, not this test's.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
/**
 * The first lint loads the parsers, the resolver and TypeScript: it runs once, before the tests, under
 * this guard against a hang (not a timing). The tests after it lint a few lines each.
 */
const FIRST_LINT = 180_000;

/**
 * The fixture project. Import cycles are found by walking files on disk, and import/no-cycle needs
 * the linted file itself on disk, so every path a test lints at is here (with harmless code).
 */
const FIXTURE: Record<string, string> = {
  "tsconfig.json": JSON.stringify({
    compilerOptions: {
      module: "ESNext",
      moduleResolution: "Bundler",
      target: "ES2022",
      jsx: "react-jsx",
      strict: true,
      baseUrl: ".",
      paths: { "~/*": ["./app/*"] },
    },
    include: ["app"],
  }),
  // A cycle of value imports, one through the ~/ alias and one by a relative path.
  "app/domain/cycle/a.ts": `import { b } from "~/domain/cycle/b";\nexport const a = () => b;\n`,
  "app/domain/cycle/b.ts": `import { a } from "./a";\nexport const b = () => a;\n`,
  // The back end's shape: the router imports a capability, which takes its route types from route.ts.
  "app/backend/route.ts": `export interface BackendRoute {\n  path: string;\n}\n`,
  "app/backend/router.server.ts": `import type { BackendRoute } from "~/backend/route";\nimport { orderRoutes } from "~/backend/orders/orders.server";\nexport type { BackendRoute };\nexport const ROUTES: BackendRoute[] = [...orderRoutes];\n`,
  "app/backend/orders/orders.server.ts": `import type { BackendRoute } from "~/backend/route";\nexport const orderRoutes: BackendRoute[] = [{ path: "/api/orders" }];\n`,
  "app/backend/hotels/hotel-file.ts": `export const FACILITY_GROUPS = ["pool"];\nexport const PAYMENT_METHODS = ["credit"];\n`,
  "app/backend/messages.ts": `export const apiMessage = (code: string) => code;\n`,
  // The site's data reads the languages; the languages read nothing.
  "app/i18n/languages.ts": `export const LANGUAGES = ["zh-TW"] as const;\n`,
  "app/platform/site.server.ts": `import { LANGUAGES } from "~/i18n/languages";\nexport interface SiteData {\n  languages: typeof LANGUAGES;\n}\n`,
  // Files the tests lint other code as.
  "app/routes/($lang).room.$roomClassId.tsx": `export default function Room() {\n  return null;\n}\n`,
  "app/features/orders/OrderSummary.tsx": `export function OrderSummary() {\n  return null;\n}\n`,
  "app/features/booking/booking-page.server.ts": `export const page = "booking";\n`,
  "app/worker/worker.server.ts": `export const worker = "worker";\n`,
  "app/domain/payments.ts": `export const METHODS = ["credit"];\n`,
  "app/domain/cart.ts": `export const cart = [];\n`,
  "app/contract/schemas.ts": `export const schemas = {};\nexport interface SearchRow {\n  inventory: number;\n}\n`,
  "app/ui/PhoneLink.tsx": `export function PhoneLink() {\n  return null;\n}\n`,
  "app/ui/site-data.ts": `export const SITE_ROUTE_ID = "routes/($lang)";\n`,
  // One module in each folder of the table (decision 141), for the imports between folders.
  "app/features/account/sign-in.server.ts": `export const memberSystemOpen = () => true;\n`,
  "app/features/content/pixel.ts": `export const pixelScript = (id: string) => id;\n`,
  "app/features/addons/addons.ts": `export const ADDON_FIELDS = ["addon_1"];\n`,
  "app/ui/Analytics.tsx": `export function Analytics() {\n  return null;\n}\n`,
  "app/platform/log.server.ts": `export interface Logger {\n  warn(message: string): void;\n}\nexport const createLogger = (): Logger => ({ warn: () => undefined });\n`,
  "app/platform/edge/policy.ts": `export const openEdgeCache = () => null;\n`,
  "app/contract/content-reads.ts": `export const reads = {};\n`,
  "app/domain/order-lines.ts": `export const errors = [];\n`,
  "app/lib/html.ts": `export const escapeHtml = (text: string) => text;\n`,
  "app/lib/memory.ts": `export class MemoryCache {}\n`,
  "app/i18n/format.ts": `export const formatPrice = (amount: number) => String(amount);\n`,
  "app/documents/labels.ts": `export const docText = (key: string) => key;\n`,
  "app/documents/addon-text.ts": `export const addonLines = () => [];\n`,
  "app/layouts/palettes.ts": `export const NEUTRAL_PALETTE = { bg: "#fff" };\n`,
  "app/backend/mail/render.server.ts": `export const render = () => "";\n`,
};

let project = "";
let eslint: ESLint;
const before = process.cwd();

/** The rule ids ESLint reports for `code` as if it were the fixture's file at `at` (a path under the fixture project). */
async function rulesFiredAt(at: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(project, at) });
  if (!result) throw new Error(`no lint result for ${at}`);
  const fatal = result.messages.filter((message) => message.fatal);
  if (fatal.length > 0) throw new Error(`could not lint ${at}: ${fatal.map((message) => message.message).join("; ")}`);
  return result.messages.map((message) => message.ruleId ?? "");
}

/** The messages ESLint reports for `code` at `at`. */
async function messagesAt(at: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(project, at) });
  return result ? result.messages.map((message) => message.message) : [];
}

/** The fixture's own file at `at`, linted as it is on disk. */
async function rulesFiredIn(at: string): Promise<string[]> {
  const results = await eslint.lintFiles([path.join(project, at)]);
  return results.flatMap((result) => result.messages.map((message) => message.ruleId ?? ""));
}

describe("the lint rules, on fixture code", () => {
  beforeAll(() => {
    project = mkdtempSync(path.join(tmpdir(), "portico-lint-"));
    for (const [file, code] of Object.entries(FIXTURE)) {
      mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
      writeFileSync(path.join(project, file), code);
    }
    // The config's paths (app/**, the zones' ./app, the resolver's ./tsconfig.json) are read from the working directory.
    process.chdir(project);
    eslint = new ESLint({ cwd: project, overrideConfigFile: path.join(root, "eslint.config.js") });
    // The first lint, under its guard (FIRST_LINT); the tests after it take the usual timeout.
    return eslint.lintFiles([path.join(project, "app/platform/site.server.ts")]).then(() => undefined);
  }, FIRST_LINT);
  afterAll(() => {
    process.chdir(before);
    if (project) rmSync(project, { recursive: true, force: true });
  });

  describe("no import cycles in app/", () => {
    it("a cycle of value imports through the ~/ alias is reported (import/no-cycle)", async () => {
      expect(await rulesFiredIn("app/domain/cycle/a.ts")).toEqual(["import/no-cycle"]);
      expect(await rulesFiredIn("app/domain/cycle/b.ts")).toEqual(["import/no-cycle"]);
    });

    it("the back end's former cycle is reported: a capability that takes its route types from the router", async () => {
      // router.server.ts imports orders.server.ts; orders.server.ts once imported the router's types back.
      const code = `import type { BackendRoute } from "~/backend/router.server";\nexport const orderRoutes: BackendRoute[] = [{ path: "/api/orders" }];\n`;
      expect(await rulesFiredAt("app/backend/orders/orders.server.ts", code)).toContain("portico/type-import-cycle");
    });

    it("a type-only cycle through the ~/ alias is reported", async () => {
      // site.server.ts imports ~/i18n/languages.
      const code = `import type { SiteData } from "~/platform/site.server";\nexport type Site = SiteData;\nexport const LANGUAGES = ["zh-TW"] as const;\n`;
      expect(await rulesFiredAt("app/i18n/languages.ts", code)).toContain("portico/type-import-cycle");
    });

    it("an import in one direction only is no cycle", async () => {
      for (const file of [
        "app/backend/orders/orders.server.ts",
        "app/backend/router.server.ts",
        "app/platform/site.server.ts",
        "app/i18n/languages.ts",
      ]) {
        expect(await rulesFiredIn(file), file).toEqual([]);
      }
    });
  });

  describe("the site stays out of the back end's modules", () => {
    it("a route may not import the back end (the room page once imported the hotel file)", async () => {
      const code = `import { FACILITY_GROUPS } from "~/backend/hotels/hotel-file";\nexport const groups = FACILITY_GROUPS;\n`;
      expect(await rulesFiredAt("app/routes/($lang).room.$roomClassId.tsx", code)).toContain("import/no-restricted-paths");
    });

    it("nor may a component, by a relative path or for a type only", async () => {
      const relative = `import { apiMessage } from "../../backend/messages";\nexport const message = apiMessage;\n`;
      expect(await rulesFiredAt("app/features/orders/OrderSummary.tsx", relative)).toContain("import/no-restricted-paths");
      const typeOnly = `import type { BackendRoute } from "~/backend/route";\nexport type Route = BackendRoute;\n`;
      expect(await rulesFiredAt("app/features/orders/OrderSummary.tsx", typeOnly)).toContain("import/no-restricted-paths");
    });

    it("nor the booking rules, nor the API client's schemas", async () => {
      const code = `import { PAYMENT_METHODS } from "~/backend/hotels/hotel-file";\nexport const methods = PAYMENT_METHODS;\n`;
      expect(await rulesFiredAt("app/domain/payments.ts", code)).toContain("import/no-restricted-paths");
      expect(await rulesFiredAt("app/contract/schemas.ts", code)).toContain("import/no-restricted-paths");
    });

    it("the Worker entry may (it mounts the back end as the API client's in-process transport), and so may the back end", async () => {
      const code = `import { ROUTES } from "~/backend/router.server";\nexport const routes = ROUTES;\n`;
      expect(await rulesFiredAt("app/worker/worker.server.ts", code)).toEqual([]);
      const inside = `import { FACILITY_GROUPS } from "~/backend/hotels/hotel-file";\nexport const groups = FACILITY_GROUPS;\n`;
      expect(await rulesFiredAt("app/backend/messages.ts", inside)).toEqual([]);
    });
  });

  describe("app/domain/ is free of Remix, Workers and fetch", () => {
    const booking = "app/domain/cart.ts";

    it("no Remix import", async () => {
      const code = `import type { AppLoadContext } from "@remix-run/cloudflare";\nexport type Context = AppLoadContext;\n`;
      expect(await rulesFiredAt(booking, code)).toContain("no-restricted-imports");
      const runtime = `import { json } from "@remix-run/server-runtime";\nexport const answer = json;\n`;
      expect(await rulesFiredAt(booking, runtime)).toContain("no-restricted-imports");
    });

    it("no Workers module or Workers type", async () => {
      const module = `import { env } from "cloudflare:workers";\nexport const settings = env;\n`;
      expect(await rulesFiredAt(booking, module)).toContain("no-restricted-imports");
      const type = `export function rooms(db: D1Database) {\n  return db;\n}\n`;
      expect(await rulesFiredAt(booking, type)).toContain("@typescript-eslint/no-restricted-types");
    });

    it("no fetch, however it is reached", async () => {
      expect(await rulesFiredAt(booking, `export const load = () => fetch("/api/health");\n`)).toContain("no-restricted-globals");
      expect(await rulesFiredAt(booking, `export const load = () => globalThis.fetch("/api/health");\n`)).toContain(
        "no-restricted-properties",
      );
    });

    it("outside app/domain/ the same code passes these rules (the loaders and the Worker use them)", async () => {
      const code = `import type { AppLoadContext } from "@remix-run/cloudflare";\nexport const load = (context: AppLoadContext, db: D1Database) => fetch("/api/health").then(() => [context, db]);\n`;
      const fired = await rulesFiredAt("app/features/booking/booking-page.server.ts", code);
      expect(fired).not.toContain("no-restricted-imports");
      expect(fired).not.toContain("no-restricted-globals");
      expect(fired).not.toContain("@typescript-eslint/no-restricted-types");
    });
  });

  describe("the ($lang) layout's data is read in one place", () => {
    it("a component naming the layout's route id is refused: it uses useSite()", async () => {
      const code = `import { useRouteLoaderData } from "@remix-run/react";\nexport const useHotel = () => useRouteLoaderData("routes/($lang)");\n`;
      expect(await rulesFiredAt("app/ui/PhoneLink.tsx", code)).toContain("no-restricted-syntax");
      expect(await rulesFiredAt("app/ui/site-data.ts", code)).not.toContain("no-restricted-syntax");
    });
  });

  describe("each folder of app/ imports only what its row of the table allows (decision 141)", () => {
    const refused: [string, string, string][] = [
      [
        "platform/ may not import a feature (the site data once read the sign-in feature)",
        "app/platform/site.server.ts",
        `import { memberSystemOpen } from "~/features/account/sign-in.server";\nexport const open = memberSystemOpen;\n`,
      ],
      [
        "nor by a relative path",
        "app/platform/site.server.ts",
        `import { memberSystemOpen } from "../features/account/sign-in.server";\nexport const open = memberSystemOpen;\n`,
      ],
      [
        "ui/ may not import a feature (the analytics once took the pixel from features/content/)",
        "app/ui/Analytics.tsx",
        `import { pixelScript } from "~/features/content/pixel";\nexport const script = pixelScript;\n`,
      ],
      [
        "contract/ may not import platform/",
        "app/contract/content-reads.ts",
        `import { openEdgeCache } from "~/platform/edge/policy";\nexport const open = openEdgeCache;\n`,
      ],
      [
        "contract/ may import the language codes of i18n/, not the rest of it",
        "app/contract/content-reads.ts",
        `import { formatPrice } from "~/i18n/format";\nexport const price = formatPrice;\n`,
      ],
      [
        "domain/ may not import contract/, not even a type",
        "app/domain/order-lines.ts",
        `import type { SearchRow } from "~/contract/schemas";\nexport type Row = SearchRow;\n`,
      ],
      ["lib/ may not import domain/", "app/lib/html.ts", `import { cart } from "~/domain/cart";\nexport const lines = cart;\n`],
      [
        "the back end may not import a feature",
        "app/backend/mail/render.server.ts",
        `import { OrderSummary } from "~/features/orders/OrderSummary";\nexport const summary = OrderSummary;\n`,
      ],
      [
        "the back end may not import ui/",
        "app/backend/mail/render.server.ts",
        `import { PhoneLink } from "~/ui/PhoneLink";\nexport const link = PhoneLink;\n`,
      ],
      [
        "documents/ may not import a feature",
        "app/documents/addon-text.ts",
        `import { ADDON_FIELDS } from "~/features/addons/addons";\nexport const fields = ADDON_FIELDS;\n`,
      ],
      [
        "documents/ may take the logger's module of platform/, not the rest of it",
        "app/documents/addon-text.ts",
        `import { openEdgeCache } from "~/platform/edge/policy";\nexport const open = openEdgeCache;\n`,
      ],
      [
        "layouts/ may not import ui/",
        "app/layouts/palettes.ts",
        `import { PhoneLink } from "~/ui/PhoneLink";\nexport const link = PhoneLink;\n`,
      ],
    ];
    for (const [name, at, code] of refused) {
      it(`refused: ${name}`, async () => {
        expect(await rulesFiredAt(at, code)).toContain("import/no-restricted-paths");
      });
    }

    it("the error names what the folder may import", async () => {
      const code = `import { memberSystemOpen } from "~/features/account/sign-in.server";\nexport const open = memberSystemOpen;\n`;
      expect(await messagesAt("app/platform/site.server.ts", code)).toEqual([
        expect.stringContaining("app/platform/ may import layouts, contract, domain, lib, i18n"),
      ]);
    });

    it("ui/ may import the types of platform/, not its values", async () => {
      const type = `import type { SiteData } from "~/platform/site.server";\nexport type Site = SiteData;\n`;
      expect(await rulesFiredAt("app/ui/PhoneLink.tsx", type)).toEqual([]);
      const value = `import { createLogger } from "~/platform/log.server";\nexport const log = createLogger;\n`;
      expect(await rulesFiredAt("app/ui/PhoneLink.tsx", value)).toContain("@typescript-eslint/no-restricted-imports");
      const relative = `import { createLogger } from "../platform/log.server";\nexport const log = createLogger;\n`;
      expect(await rulesFiredAt("app/ui/PhoneLink.tsx", relative)).toContain("@typescript-eslint/no-restricted-imports");
    });

    const allowed: [string, string, string][] = [
      [
        "platform/ imports layouts/, contract/, domain/ and the language codes",
        "app/platform/site.server.ts",
        `import { NEUTRAL_PALETTE } from "~/layouts/palettes";\nimport type { SearchRow } from "~/contract/schemas";\nimport { cart } from "~/domain/cart";\nimport { LANGUAGES } from "~/i18n/languages";\nexport const site = { NEUTRAL_PALETTE, cart, LANGUAGES };\nexport type Row = SearchRow;\n`,
      ],
      [
        "the back end imports documents/, layouts/ and platform/",
        "app/backend/mail/render.server.ts",
        `import { docText } from "~/documents/labels";\nimport { NEUTRAL_PALETTE } from "~/layouts/palettes";\nimport { createLogger } from "~/platform/log.server";\nexport const mail = { docText, NEUTRAL_PALETTE, createLogger };\n`,
      ],
      [
        "documents/ imports contract/, domain/, i18n/ and the logger's type",
        "app/documents/addon-text.ts",
        `import type { SearchRow } from "~/contract/schemas";\nimport { cart } from "~/domain/cart";\nimport { formatPrice } from "~/i18n/format";\nimport type { Logger } from "~/platform/log.server";\nexport const lines = { cart, formatPrice };\nexport type Row = SearchRow;\nexport type Log = Logger;\n`,
      ],
      [
        "contract/ imports lib/ and the language codes",
        "app/contract/content-reads.ts",
        `import { MemoryCache } from "~/lib/memory";\nimport { LANGUAGES } from "~/i18n/languages";\nexport const reads = { MemoryCache, LANGUAGES };\n`,
      ],
      [
        "a feature imports ui/, documents/ and platform/",
        "app/features/orders/OrderSummary.tsx",
        `import { PhoneLink } from "~/ui/PhoneLink";\nimport { docText } from "~/documents/labels";\nimport { createLogger } from "~/platform/log.server";\nexport const summary = { PhoneLink, docText, createLogger };\n`,
      ],
      [
        "a route imports a feature",
        "app/routes/($lang).room.$roomClassId.tsx",
        `import { OrderSummary } from "~/features/orders/OrderSummary";\nexport const summary = OrderSummary;\n`,
      ],
      [
        "domain/ imports lib/ and i18n/",
        "app/domain/order-lines.ts",
        `import { escapeHtml } from "~/lib/html";\nimport { formatPrice } from "~/i18n/format";\nexport const rules = { escapeHtml, formatPrice };\n`,
      ],
    ];
    for (const [name, at, code] of allowed) {
      it(`allowed: ${name}`, async () => {
        expect(await rulesFiredAt(at, code)).toEqual([]);
      });
    }
  });
});
