/**
 * Pages that hydrate (booking and checkout) work fully without JavaScript: their forms post and
 * redirect like any other. So the framework's ~90 KB of JavaScript need not compete with the HTML,
 * the stylesheets and the photos on a slow connection: this rewrite of the document holds Remix's scripts
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

const MARKER_BYTES = new TextEncoder().encode(MARKER);

/** Where the marker starts in `bytes`, or -1. */
function markerIn(bytes: Uint8Array): number {
  const last = bytes.length - MARKER_BYTES.length;
  const first = MARKER.charCodeAt(0);
  for (let at = bytes.indexOf(first); at >= 0 && at <= last; at = bytes.indexOf(first, at + 1)) {
    let index = 1;
    while (index < MARKER_BYTES.length && bytes[at + index] === MARKER_BYTES[index]) index++;
    if (index === MARKER_BYTES.length) return at;
  }
  return -1;
}

/**
 * The whole document, read once React has written all of it, with its scripts deferred — one
 * piece, instead of a stream stage that every 512-byte piece of React's passed through, batched
 * by a timer (decisions 046, 110). Nothing on the site suspends (no `defer`, `<Await>` or
 * `<Suspense>`), so the document is complete as soon as its shell is: holding it until then delays
 * nothing. Only the tail, from the first module preload on, is decoded and encoded again.
 */
export async function deferredDocument(body: ReadableStream<Uint8Array>, nonce: string): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  let length = 0;
  const reader = body.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) {
    pieces.push(part.value);
    length += part.value.byteLength;
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const piece of pieces) {
    bytes.set(piece, offset);
    offset += piece.byteLength;
  }
  const at = markerIn(bytes);
  if (at < 0) return bytes;
  const tail = new TextEncoder().encode(endTagsLast(deferScriptsIn(new TextDecoder().decode(bytes.subarray(at)), nonce)));
  const document = new Uint8Array(at + tail.byteLength);
  document.set(bytes.subarray(0, at));
  document.set(tail, at);
  return document;
}
