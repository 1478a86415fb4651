import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { localizePath } from "~/i18n/languages";

/** /booking → /{product}/booking, keeping the query (design.md). */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return redirect(`${localizePath(`/${context.app.env.PRODUCT}/booking`, context.app.lang)}${url.search}`, 301);
}
