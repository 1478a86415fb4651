/**
 * The import boundaries of app/ (decision 025) are enforced by `npm run lint`: each rule is shown
 * to fire on a snippet placed at a real path of the tree, and the real tree is shown clean.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const eslint = new ESLint({ cwd: root });
/** Linting resolves imports through tsconfig and walks the module graph: the first run parses a lot. */
const SLOW = 60_000;

const file = (path: string) => readFileSync(`${root}${path}`, "utf8");

/** The rule ids ESLint reports for `code` as if it were the file at `path` (relative to the repository). */
async function rulesFiredAt(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  if (!result) throw new Error(`no lint result for ${path}`);
  const fatal = result.messages.filter((message) => message.fatal);
  if (fatal.length > 0) throw new Error(`could not lint ${path}: ${fatal.map((message) => message.message).join("; ")}`);
  return result.messages.map((message) => message.ruleId ?? "");
}

describe("no import cycles in app/", () => {
  it("a cycle of value imports through the ~/ alias is reported (import/no-cycle)", { timeout: SLOW }, async () => {
    // eslint-plugin-import follows imports on disk, so the cycle is two real files for the time of the test.
    const dir = `${root}app/domain/__lint-cycle__`;
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(`${dir}/a.ts`, `import { b } from "~/domain/__lint-cycle__/b";\nexport const a = () => b;\n`);
      writeFileSync(`${dir}/b.ts`, `import { a } from "./a";\nexport const b = () => a;\n`);
      const results = await eslint.lintFiles([`${dir}/a.ts`, `${dir}/b.ts`]);
      const fired = results.flatMap((result) => result.messages.map((message) => message.ruleId));
      expect(fired.filter((rule) => rule === "import/no-cycle")).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the back end's former cycle is reported: a capability that takes its route types from the router", { timeout: SLOW }, async () => {
    // router.server.ts imports orders.server.ts; orders.server.ts once imported the router's types back.
    const orders = file("app/backend/orders/orders.server.ts");
    expect(orders).toContain(`from "~/backend/route";`);
    const fired = await rulesFiredAt("app/backend/orders/orders.server.ts", orders.replace(`from "~/backend/route";`, `from "~/backend/router.server";`));
    expect(fired).toContain("portico/type-import-cycle");
  });

  it("a type-only cycle through the ~/ alias is reported", { timeout: SLOW }, async () => {
    // app/platform/site.server.ts imports ~/i18n/languages.
    const code = `import type { SiteData } from "~/platform/site.server";\nexport type Site = SiteData;\nexport const LANGUAGES = ["zh-TW"] as const;\n`;
    expect(await rulesFiredAt("app/i18n/languages.ts", code)).toContain("portico/type-import-cycle");
  });

  it("an import in one direction only is no cycle", { timeout: SLOW }, async () => {
    const fired = await rulesFiredAt("app/backend/orders/orders.server.ts", file("app/backend/orders/orders.server.ts"));
    expect(fired).not.toContain("import/no-cycle");
    expect(fired).not.toContain("portico/type-import-cycle");
  });
});

describe("the site stays out of the back end's modules", () => {
  it("a route may not import the back end (the room page once imported the hotel file)", { timeout: SLOW }, async () => {
    const code = `import { FACILITY_GROUPS } from "~/backend/hotels/hotel-file";\nexport const groups = FACILITY_GROUPS;\n`;
    expect(await rulesFiredAt("app/routes/($lang).room.$roomClassId.tsx", code)).toContain("import/no-restricted-paths");
  });

  it("nor may a component, by a relative path or for a type only", { timeout: SLOW }, async () => {
    const relative = `import { apiMessage } from "../../backend/messages";\nexport const message = apiMessage;\n`;
    expect(await rulesFiredAt("app/features/orders/OrderSummary.tsx", relative)).toContain("import/no-restricted-paths");
    const typeOnly = `import type { BackendContext } from "~/backend/route";\nexport type Context = BackendContext;\n`;
    expect(await rulesFiredAt("app/features/orders/OrderSummary.tsx", typeOnly)).toContain("import/no-restricted-paths");
  });

  it("nor the booking rules, nor the API client's schemas", { timeout: SLOW }, async () => {
    const code = `import { PAYMENT_METHODS } from "~/backend/hotels/hotel-file";\nexport const methods = PAYMENT_METHODS;\n`;
    expect(await rulesFiredAt("app/domain/payments.ts", code)).toContain("import/no-restricted-paths");
    expect(await rulesFiredAt("app/contract/schemas.ts", code)).toContain("import/no-restricted-paths");
  });

  it("the Worker entry may (it mounts the back end as the API client's in-process transport)", { timeout: SLOW }, async () => {
    const code = `import { handleBackendRequest } from "~/backend/router.server";\nexport const handle = handleBackendRequest;\n`;
    expect(await rulesFiredAt("app/worker/worker.server.ts", code)).not.toContain("import/no-restricted-paths");
  });
});

describe("app/domain/ is free of Remix, Workers and fetch", () => {
  const booking = "app/domain/cart.ts";

  it("no Remix import", { timeout: SLOW }, async () => {
    const code = `import type { AppLoadContext } from "@remix-run/cloudflare";\nexport type Context = AppLoadContext;\n`;
    expect(await rulesFiredAt(booking, code)).toContain("no-restricted-imports");
    const runtime = `import { json } from "@remix-run/server-runtime";\nexport const answer = json;\n`;
    expect(await rulesFiredAt(booking, runtime)).toContain("no-restricted-imports");
  });

  it("no Workers module or Workers type", { timeout: SLOW }, async () => {
    const module = `import { env } from "cloudflare:workers";\nexport const settings = env;\n`;
    expect(await rulesFiredAt(booking, module)).toContain("no-restricted-imports");
    const type = `export function rooms(db: D1Database) {\n  return db;\n}\n`;
    expect(await rulesFiredAt(booking, type)).toContain("@typescript-eslint/no-restricted-types");
  });

  it("no fetch, however it is reached", { timeout: SLOW }, async () => {
    expect(await rulesFiredAt(booking, `export const load = () => fetch("/api/health");\n`)).toContain("no-restricted-globals");
    expect(await rulesFiredAt(booking, `export const load = () => globalThis.fetch("/api/health");\n`)).toContain(
      "no-restricted-properties",
    );
  });

  it("outside app/domain/ the same code passes these rules (the loaders and the Worker use them)", { timeout: SLOW }, async () => {
    const code = `import type { AppLoadContext } from "@remix-run/cloudflare";\nexport const load = (context: AppLoadContext, db: D1Database) => fetch("/api/health").then(() => [context, db]);\n`;
    const fired = await rulesFiredAt("app/features/booking/booking-page.server.ts", code);
    expect(fired).not.toContain("no-restricted-imports");
    expect(fired).not.toContain("no-restricted-globals");
    expect(fired).not.toContain("@typescript-eslint/no-restricted-types");
  });
});

describe("the ($lang) layout's data is read in one place", () => {
  it("a component naming the layout's route id is refused: it uses useSite()", { timeout: SLOW }, async () => {
    const code = `import { useRouteLoaderData } from "@remix-run/react";\nexport const useHotel = () => useRouteLoaderData("routes/($lang)");\n`;
    expect(await rulesFiredAt("app/ui/PhoneLink.tsx", code)).toContain("no-restricted-syntax");
    expect(await rulesFiredAt("app/ui/site-data.ts", code)).not.toContain("no-restricted-syntax");
  });
});

describe("the real tree", () => {
  it("app/ has no lint error: no cycle, no boundary crossed", { timeout: SLOW }, async () => {
    const results = await eslint.lintFiles(["app"]);
    expect(results.length).toBeGreaterThan(50);
    const problems = results.flatMap((result) =>
      result.messages.map((message) => `${result.filePath.slice(root.length)}:${message.line} ${message.ruleId}: ${message.message}`),
    );
    expect(problems).toEqual([]);
  });
});
