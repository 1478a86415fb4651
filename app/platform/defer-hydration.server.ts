/**
 * Pages that hydrate (booking and checkout) work fully without JavaScript: their forms post and
 * redirect like any other. So the framework's ~90 KB of JavaScript need not compete with the HTML,
 * the stylesheets and the photos on a slow connection: this stream rewrite holds Remix's scripts
 * back until the page has loaded, then starts them. A guest who acts before that gets the
 * JavaScript-free path, which is the same form.
 *
 * What it rewrites, at the end of the document that `<Scripts>` renders:
 * - `<link rel="modulepreload" href=…>` becomes `<link rel="dns-prefetch" data-deferred-rel="modulepreload" href=…>`
 *   (a same-origin DNS prefetch does nothing, and keeps the element valid HTML in the body);
 * - the `<script type="module" async>` that imports the routes and the client entry becomes
 *   `type="text/x-deferred-module"`, without `async` (a data block may not carry it);
 * - `</body></html>` moves to the very end: React streams single fetch's data scripts after the
 *   document's end tags, which the HTML parser reports as stray;
 * and a few lines added to Remix's context script (which carries the page's CSP nonce) restore the
 * links and the script once the `load` event has fired. React hydrates elements by tag, so the
 * changed attributes do not disturb hydration.
 */
const MARKER = '<link rel="modulepreload"';
const DOCUMENT_END = "</body></html>";

export function deferredHydrationLoader(nonce: string): string {
  return (
    ";(function(){function go(){" +
    'document.querySelectorAll("link[data-deferred-rel]").forEach(function(l){l.rel=l.getAttribute("data-deferred-rel")});' +
    "var d=document.querySelector('script[type=\"text/x-deferred-module\"]');if(!d)return;" +
    `var s=document.createElement("script");s.type="module";s.nonce=${JSON.stringify(nonce)};s.textContent=d.textContent;d.replaceWith(s)}` +
    'if(document.readyState==="complete")setTimeout(go);else addEventListener("load",function(){setTimeout(go)})})();'
  );
}

/**
 * Rewrites the tail of a rendered document (everything from the first module preload on). The
 * loader joins the end of Remix's own context script rather than adding an element, since React
 * would take an element it did not render for a hydration mismatch.
 */
export function deferScriptsIn(tail: string, nonce: string): string {
  const context = tail.indexOf("window.__remixContext");
  const contextEnd = context < 0 ? -1 : tail.indexOf("</script>", context);
  const moduleScript = /<script([^>]*) type="module"([^>]*)>/;
  const withoutAsync = (attributes: string) => attributes.replace(/ async(="[^"]*")?/, "");
  if (contextEnd < 0 || !moduleScript.test(tail.slice(contextEnd))) return tail;
  const withLoader = tail.slice(0, contextEnd) + deferredHydrationLoader(nonce) + tail.slice(contextEnd);
  return withLoader
    .replaceAll(MARKER, '<link rel="dns-prefetch" data-deferred-rel="modulepreload"')
    .replace(
      moduleScript,
      (_match, before: string, after: string) => `<script${withoutAsync(before)} type="text/x-deferred-module"${withoutAsync(after)}>`,
    );
}

/** Puts the document's end tags after whatever was streamed behind them. */
export function endTagsLast(tail: string): string {
  const at = tail.indexOf(DOCUMENT_END);
  if (at < 0 || at + DOCUMENT_END.length === tail.length) return tail;
  return tail.slice(0, at) + tail.slice(at + DOCUMENT_END.length) + DOCUMENT_END;
}

/**
 * React writes the document in 512-byte pieces; they are gathered before being looked at and
 * passed on (decoding, searching and encoding each piece cost more than the page's bytes): up to
 * this size, or to the end of what React wrote in one go (a timer of 0 fires after it), so a page
 * that streams in parts still leaves part by part.
 */
const BATCH_BYTES = 16_384;

/** The document stream with its scripts deferred (see above); pages without scripts pass unchanged. */
export function deferHydration(body: ReadableStream<Uint8Array>, nonce: string): ReadableStream<Uint8Array> {
  let head = "";
  let tail: string | null = null;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const take = (final: boolean): string => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    let text = "";
    for (const piece of pending) text += decoder.decode(piece, { stream: true });
    pending = [];
    pendingBytes = 0;
    return final ? text + decoder.decode() : text;
  };
  const pass = (text: string, controller: TransformStreamDefaultController<Uint8Array>) => {
    if (tail !== null) {
      tail += text;
      return;
    }
    head += text;
    const at = head.indexOf(MARKER);
    if (at >= 0) {
      tail = head.slice(at);
      controller.enqueue(encoder.encode(head.slice(0, at)));
      head = "";
      return;
    }
    // Stream on, keeping back only what could be the start of the marker.
    const keep = MARKER.length - 1;
    if (head.length > keep) {
      controller.enqueue(encoder.encode(head.slice(0, head.length - keep)));
      head = head.slice(head.length - keep);
    }
  };
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        pending.push(chunk);
        pendingBytes += chunk.byteLength;
        if (pendingBytes >= BATCH_BYTES) pass(take(false), controller);
        else
          timer ??= setTimeout(() => {
            try {
              pass(take(false), controller);
            } catch (error) {
              // The guest may have gone (the stream cancelled) before the timer fired: a closed
              // stream refuses more output with a TypeError, and there is no one to send to.
              pending = [];
              if (!(error instanceof TypeError)) console.error("deferred hydration: the page could not be passed on", error);
            }
          }, 0);
      },
      flush(controller) {
        pass(take(true), controller);
        const rest = tail === null ? head : endTagsLast(deferScriptsIn(tail, nonce));
        if (rest) controller.enqueue(encoder.encode(rest));
      },
    }),
  );
}
