import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { renderToReadableStream } from "react-dom/server";
import { deferredDocument } from "~/platform/defer-hydration.server";
import { HydrationResources, type HydrationWords } from "~/i18n/hydration";
import { TranslationProvider } from "~/i18n/react";
import type { Messages } from "~/i18n/translate";
import { resources } from "~/i18n/resources";
import { SHELL_WORDS, pickWords, type WordList } from "~/i18n/page-words";
import { lodgingUnit, type LodgingUnit } from "~/domain/units";
import { messagesOf } from "~/i18n/page-messages.server";

export const streamTimeout = 5_000;

/** Loader and action errors, in the request's log (tagged with its id); a guest who left is not an error. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  context.app.log.error("loader or action failed", request.method, new URL(request.url).pathname, error);
};

/**
 * The words a hydrating page carries (decision 144): the shell's and those its routes list in
 * `handle.words`; a page whose routes list none carries them all. As JSON safe inside a script
 * element, built once per language, unit and list. The server renders with these words too: a
 * word missing from a page shows in its HTML, not only once it hydrates.
 */
const hydrationJsons = new Map<string, HydrationWords & { messages: Messages }>();
function hydrationWordsOf(lang: keyof typeof resources, unit: LodgingUnit, remixContext: EntryContext) {
  const lists = remixContext.staticHandlerContext.matches
    .map((match) => (remixContext.routeModules[match.route.id]?.handle as { words?: WordList } | undefined)?.words)
    .filter((words) => words !== undefined);
  const list = lists.length > 0 ? [...SHELL_WORDS, ...lists.flat()] : null;
  const cacheKey = `${lang}|${unit}|${list?.join(",") ?? "*"}`;
  let words = hydrationJsons.get(cacheKey);
  if (words === undefined) {
    const messages = list ? pickWords(messagesOf(lang, unit), list) : messagesOf(lang, unit);
    words = { messages, json: JSON.stringify(messages).replace(/</g, "\\u003c"), complete: list === null };
    hydrationJsons.set(cacheKey, words);
  }
  return words;
}

/** Streams the page as it renders; crawlers get the whole document at once. */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const { lang, cspNonce } = loadContext.app;
  const unit = lodgingUnit(loadContext.app.hotel?.kind);
  const hydrationWords = hydrationWordsOf(lang, unit, remixContext);
  const controller = new AbortController();
  const timeout = setTimeout(() => controller.abort(), streamTimeout + 1_000);
  let status = responseStatusCode;
  const body = await renderToReadableStream(
    <HydrationResources.Provider value={hydrationWords}>
      <TranslationProvider lang={lang} messages={hydrationWords.messages}>
        <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={cspNonce} />
      </TranslationProvider>
    </HydrationResources.Provider>,
    {
      nonce: cspNonce,
      signal: controller.signal,
      onError(error: unknown) {
        if (!controller.signal.aborted) loadContext.app.log.error("render failed", request.method, new URL(request.url).pathname, error);
        status = 500;
      },
    },
  );
  body.allReady.finally(() => clearTimeout(timeout));
  // Nothing on the site suspends (no defer, <Await> or <Suspense>): the document is whole as soon
  // as its shell is, and leaves in one piece (decision 110). Crawlers got it whole before already.
  await body.allReady;

  responseHeaders.set("content-type", "text/html; charset=utf-8");
  responseHeaders.set("content-language", lang);
  return new Response(await deferredDocument(body, cspNonce), { headers: responseHeaders, status });
}
