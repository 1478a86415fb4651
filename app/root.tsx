import type { LinksFunction, LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/cloudflare";
import {
  Links,
  useLocation,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useMatches,
  useRouteError,
  useRouteLoaderData,
  type ClientLoaderFunctionArgs,
  type ShouldRevalidateFunctionArgs,
} from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { useTranslation } from "~/i18n/react";
import { useFocusOnNewPage } from "~/ui/new-page-focus";
import { NotFound } from "~/ui/NotFound";
import { ServerError } from "~/ui/ServerError";
import { markHydrated } from "~/ui/hydration-guard";
import { RESOURCES_ELEMENT_ID, useHydrationResources } from "~/i18n/hydration";
import { localizePath, stripLanguage } from "~/i18n/languages";
import { canonicalPath } from "~/ui/seo";
import baseStyles from "~/ui/styles/base.css";
import { useSite } from "~/ui/site-data";
import { handedOver } from "~/ui/handoff";
import { loadAllWords, wordsMissing } from "~/i18n/client-words";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: baseStyles }];

export const meta: MetaFunction = ({ error }) => (isRouteErrorResponse(error) && error.status === 404 ? [{ title: "404" }] : []);

export async function loader({ context }: LoaderFunctionArgs) {
  const { app } = context;
  return {
    lang: app.lang,
    nonce: app.cspNonce,
    icon: app.hotel?.icon_images.main ?? "",
  };
}

/** The root's data as the document was served: it does not change while the document is shown. */
let documentData: SerializeFrom<typeof loader> | null = null;
let languageChanged = false;

/**
 * The root's data changes only with the language, which a reload changes (the language switch). A
 * client navigation to another page while the page carries only its own words (decision 144)
 * asks the root's client loader for the rest of them, beside the new page's data. A page whose data
 * a form's answer handed over was given its words with the page that handed it (the checkout's).
 */
export function shouldRevalidate({ currentParams, nextParams, currentUrl, nextUrl }: ShouldRevalidateFunctionArgs) {
  languageChanged = currentParams.lang !== nextParams.lang;
  return languageChanged || (wordsMissing() && nextUrl.pathname !== currentUrl.pathname && !handedOver(nextUrl));
}

export async function clientLoader({ request, serverLoader }: ClientLoaderFunctionArgs) {
  const words = loadAllWords(document.documentElement.lang).catch(() => {
    // Without the words the page would show keys: it is loaded as without JavaScript instead.
    window.location.assign(request.url);
    return new Promise<never>(() => undefined);
  });
  const data = languageChanged || documentData === null ? await serverLoader<typeof loader>() : documentData;
  await words;
  return data;
}

/**
 * Whether the page runs its scripts: a matched route asks for them (handle.hydrate; content pages
 * do not), or they run already. In a browser this code runs only in a page that hydrated, and from
 * there a client navigation can show a route that would not hydrate on its own ("Place booking"
 * leads to the pay page). Scroll restoration and the scripts stay for it: removing them on the way
 * left the new page at the old one's scroll (issue 22, item 11; decision 066).
 */
function useHydration(): boolean {
  const wanted = useMatches().some((match) => (match.handle as { hydrate?: boolean } | undefined)?.hydrate === true);
  return wanted || typeof document !== "undefined";
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const { i18n } = useTranslation();
  const hydrate = useHydration();
  const resources = useHydrationResources();
  const bookingTheme = useMatches().some((match) => (match.handle as { booking?: boolean } | undefined)?.booking === true);
  const lang = data?.lang ?? i18n.language;
  useEffect(() => {
    if (data) documentData = data;
  }, [data]);
  const site = useSite();
  const location = useLocation();
  const path = canonicalPath(stripLanguage(location.pathname), location.search);
  // A page that was not found (its route answered 404) has no other-language versions.
  const matches = useMatches();
  const found = matches[matches.length - 1]?.data !== undefined;
  const alternates = found ? site : undefined;
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {data?.icon ? <link rel="icon" href={data.icon} /> : null}
        <Meta />
        <Links />
        {site?.stylesheets.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {site && bookingTheme ? <link rel="stylesheet" href={site.bookingStylesheet} /> : null}
        {alternates?.hotel.languages.map((language) => (
          <link key={language} rel="alternate" hrefLang={language} href={`${alternates.origin}${localizePath(path, language)}`} />
        ))}
        {alternates ? (
          <link rel="alternate" hrefLang="x-default" href={`${alternates.origin}${localizePath(path, alternates.hotel.mainLanguage)}`} />
        ) : null}
      </head>
      <body>
        {children}
        {hydrate ? (
          <>
            <script
              id={RESOURCES_ELEMENT_ID}
              type="application/json"
              nonce={data?.nonce}
              data-complete={resources.complete}
              suppressHydrationWarning
              // The page's words for the hydrating client, so they are not in the bundle (decision 144).
              dangerouslySetInnerHTML={{ __html: resources.json }}
            />
            <ScrollRestoration nonce={data?.nonce} />
            <Scripts nonce={data?.nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  // Once React has hydrated the document (pages that ship JavaScript): it takes input from here on,
  // and the document is marked for tests and CSS.
  useEffect(() => markHydrated(), []);
  const announcement = useFocusOnNewPage();
  return (
    <>
      <Outlet />
      {/* The route announcer: a page shown without a reload says its title (decision 082). */}
      <p className="visually-hidden" aria-live="polite" aria-atomic="true" id="route-announcer">
        {announcement}
      </p>
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound homeLink={false} />;
  return <ServerError status={isRouteErrorResponse(error) ? error.status : 500} />;
}
