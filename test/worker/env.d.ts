import type { D1Migration } from "@cloudflare/vitest-pool-workers";

declare global {
  namespace Cloudflare {
    interface Env {
      DB: D1Database;
      TEST_MIGRATIONS: D1Migration[];
      SESSION_SECRET: string;
      DEFAULT_HOTEL_DOMAIN: string;
    }
  }
}
export {};
