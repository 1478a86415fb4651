import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEVELOPMENT_SECRETS } from "~/platform/env.server";

const file = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

describe("secrets stay out of the repository", () => {
  it("wrangler.toml sets no secret as a [vars] value (a deploy would overwrite the real secret with it)", () => {
    const settings = file("wrangler.toml")
      .split("\n")
      .filter((line) => !line.trim().startsWith("#"))
      .join("\n");
    expect(settings).not.toMatch(/^\s*SESSION_SECRET\s*=/m);
    expect(settings).not.toMatch(/SECRET|_KEY\s*=|PASSWORD/i);
  });

  it("local secrets live in .dev.vars, which git ignores; the committed example's value is one the Worker refuses on a public host", () => {
    expect(file(".gitignore").split("\n")).toContain(".dev.vars");
    const example = /^SESSION_SECRET="([^"]+)"$/m.exec(file(".dev.vars.example"))?.[1];
    expect(example).toBeDefined();
    expect(DEVELOPMENT_SECRETS.has(example ?? "")).toBe(true);
    expect(example?.length).toBeGreaterThanOrEqual(32);
  });
});
