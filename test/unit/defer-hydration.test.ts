import { describe, expect, it } from "vitest";
import { deferredDocument, deferScriptsIn } from "~/platform/defer-hydration.server";

const TAIL =
  '<link rel="modulepreload" href="/build/entry.client-A.js"/><link rel="modulepreload" href="/build/routes/($lang)-B.js"/>' +
  '<script nonce="N">window.__remixContext = {};</script>' +
  '<script nonce="N" type="module" async="">import "/build/manifest-C.js";\nimport("/build/entry.client-A.js");</script></body></html>';
const DOCUMENT = `<!DOCTYPE html><html><head></head><body><main>Rooms</main>${TAIL}`;

async function streamed(text: string, chunkSize: number): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += chunkSize) controller.enqueue(bytes.slice(at, at + chunkSize));
      controller.close();
    },
  });
  return new TextDecoder().decode(await deferredDocument(body, "N"));
}

describe("scripts held back until the page has loaded", () => {
  it("turns the module preloads and the module script inert and adds the loader to Remix's context script", () => {
    const out = deferScriptsIn(TAIL, "N");
    expect(out).not.toMatch(/<link rel="modulepreload"/);
    expect(out.match(/<link rel="dns-prefetch" data-deferred-rel="modulepreload"/g)).toHaveLength(2);
    expect(out).toContain('<script nonce="N" type="text/x-deferred-module">import "/build/manifest-C.js";');
    expect(out).toMatch(/window\.__remixContext = \{\};;\(function\(\)\{.*addEventListener\("load"/);
    expect(out).toContain('s.nonce="N"');
    expect(out.endsWith("</body></html>")).toBe(true);
  });

  it("moves the end tags after the data scripts React streams behind them", async () => {
    const streamedData = '<!--$--><script nonce="N">window.__remixContext.streamController.enqueue("[]")</script><!--/$-->';
    const out = await streamed(DOCUMENT + streamedData, 64);
    expect(out.endsWith(`${streamedData}</body></html>`)).toBe(true);
    expect(out.match(/<\/body><\/html>/g)).toHaveLength(1);
  });

  it("keeps the whole tail when it comes in parts, some large, at different times (decision 110)", async () => {
    const encoder = new TextEncoder();
    const data = `<!--$--><script nonce="N">window.__remixContext.streamController.enqueue("${"房".repeat(9_000)}")</script><!--/$-->`;
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode(DOCUMENT.slice(0, 60)));
        await new Promise((resolve) => setTimeout(resolve, 5));
        controller.enqueue(encoder.encode(DOCUMENT.slice(60)));
        await new Promise((resolve) => setTimeout(resolve, 5));
        const bytes = encoder.encode(data);
        // A multi-byte character cut between two pieces.
        controller.enqueue(bytes.slice(0, 20_001));
        await new Promise((resolve) => setTimeout(resolve, 5));
        controller.enqueue(bytes.slice(20_001));
        controller.close();
      },
    });
    const out = new TextDecoder().decode(await deferredDocument(body, "N"));
    expect(out).toBe(
      `<!DOCTYPE html><html><head></head><body><main>Rooms</main>${deferScriptsIn(TAIL, "N").replace("</body></html>", "")}${data}</body></html>`,
    );
  });

  it("leaves a document alone when it is not the shape it knows", () => {
    const noContext = '<link rel="modulepreload" href="/a.js"/><script type="module">import "/a.js";</script>';
    expect(deferScriptsIn(noContext, "N")).toBe(noContext);
  });

  it.each([1, 7, 25, 4096])("gives the same document whatever the chunk size (%i bytes)", async (size) => {
    expect(await streamed(DOCUMENT, size)).toBe(`<!DOCTYPE html><html><head></head><body><main>Rooms</main>${deferScriptsIn(TAIL, "N")}`);
  });

  it("passes pages without scripts through unchanged, multi-byte text included", async () => {
    const page = "<!DOCTYPE html><html><body><p>訂房完成 · 予約</p></body></html>";
    expect(await streamed(page, 3)).toBe(page);
  });
});
