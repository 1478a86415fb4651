import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { renderToReadableStream } from "react-dom/server";
import { deferredDocument } from "~/platform/defer-hydration.server";
import { HydrationResources } from "~/i18n/hydration";
import { TranslationProvider } from "~/i18n/react";
import { resources } from "~/i18n/resources";
import { lodgingUnit, withUnitWords, type LodgingUnit } from "~/domain/units";

export const streamTimeout = 5_000;

/** Loader and action errors, in the request's log (tagged with its id); a guest who left is not an error. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  context.app.log.error("loader or action failed", request.method, new URL(request.url).pathname, error);
};

/** A language's messages in the words of what the hotel sells (rooms, sites…); built once per language and unit. */
const unitMessages = new Map<string, (typeof resources)[keyof typeof resources]>();
function messagesOf(lang: keyof typeof resources, unit: LodgingUnit) {
  let messages = unitMessages.get(`${lang}|${unit}`);
  if (messages === undefined) unitMessages.set(`${lang}|${unit}`, (messages = withUnitWords(resources[lang], unit)));
  return messages;
}

/** The translations a hydrating page carries, as JSON safe inside a script element; built once per language and unit. */
const hydrationJsons = new Map<string, string>();
function hydrationJsonOf(lang: keyof typeof resources, unit: LodgingUnit): string {
  let json = hydrationJsons.get(`${lang}|${unit}`);
  if (json === undefined) hydrationJsons.set(`${lang}|${unit}`, (json = JSON.stringify(messagesOf(lang, unit)).replace(/</g, "\\u003c")));
  return json;
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
  const hydrationJson = hydrationJsonOf(lang, unit);
  const controller = new AbortController();
  const timeout = setTimeout(() => controller.abort(), streamTimeout + 1_000);
  let status = responseStatusCode;
  const body = await renderToReadableStream(
    <HydrationResources.Provider value={hydrationJson}>
      <TranslationProvider lang={lang} messages={messagesOf(lang, unit)}>
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
