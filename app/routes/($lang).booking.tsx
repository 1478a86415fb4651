import { type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { safeRedirect } from "~/platform/redirects.server";
import { localizePath } from "~/i18n/languages";

/** /booking → /{product}/booking, keeping the query (design.md). The Worker answers it first (redirects.server.ts). */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return safeRedirect(`${localizePath(`/${context.app.env.PRODUCT}/booking`, context.app.lang)}${url.search}`, request, 301);
}
