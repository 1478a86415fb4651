import type { EntryContext } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { renderToReadableStream } from "react-dom/server";

/** Streams the page as it renders, as Portico's entry does. */
export default async function handleRequest(request: Request, status: number, headers: Headers, remixContext: EntryContext) {
  const body = await renderToReadableStream(<RemixServer context={remixContext} url={request.url} />, {
    onError(error: unknown) {
      console.error(error);
    },
  });
  headers.set("content-type", "text/html; charset=utf-8");
  return new Response(body, { status, headers });
}
