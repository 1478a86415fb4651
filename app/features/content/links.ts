import type { LinksFunction } from "@remix-run/cloudflare";
import contentStyles from "./content.css";

/**
 * The content pages' stylesheet (decision 161): rules only the content pages use, kept out of
 * base.css so the booking pages do not load them. As a route's links, a client navigation from a
 * hydrated page waits for it before showing the page.
 */
export const contentLinks: LinksFunction = () => [{ rel: "stylesheet", href: contentStyles }];
