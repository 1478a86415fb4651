import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** Pure rules and tools, in Node. */
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["test/unit/**/*.test.ts"],
    setupFiles: ["test/unit/setup.ts"],
    // @cantoo/pdf-lib 2.11.0 imports JSON without an import attribute, which Node's own loader refuses;
    // Vite's transform reads it as the Worker's bundler does (decision 143).
    server: { deps: { inline: ["@cantoo/pdf-lib"] } },
  },
});
