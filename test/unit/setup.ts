import { afterEach, beforeEach, vi } from "vitest";

// An unexpected console.error is a bug: it fails the test that caused it.
let errorSpy: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  errorSpy = vi.spyOn(console, "error");
});
afterEach(() => {
  const calls = errorSpy.mock.calls;
  errorSpy.mockRestore();
  if (calls.length > 0) throw new Error(`console.error was called: ${calls.map((call: unknown[]) => call.join(" ")).join("\n")}`);
});
