import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** Pure rules and tools, in Node. */
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["test/unit/**/*.test.ts"],
    setupFiles: ["test/unit/setup.ts"],
  },
});
