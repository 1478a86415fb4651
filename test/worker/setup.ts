import { applyD1Migrations, env } from "cloudflare:test";
import { vi } from "vitest";

// Idempotent: applyD1Migrations skips migrations already recorded in d1_migrations.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// One instant for the whole test file, in the tests and in the Worker alike (SELF runs in this
// isolate, so it reads the same Date): the hotel's "today" a test computes when it loads is the
// Worker's "today" for every request of the file, even when a run crosses midnight in Taipei.
// Only Date is frozen; timers run as usual. Files share one isolate one after another (decision
// 164): the clock is let go first, so each file freezes its own instant, not the previous file's.
vi.useRealTimers();
vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
