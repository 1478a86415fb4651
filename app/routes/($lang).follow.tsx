import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { fixedT } from "~/i18n/i18next.server";
import { pageMeta, siteFromMatches } from "~/ui/seo";
import { notFound } from "~/platform/not-found.server";
import { contentLinks } from "~/features/content/links";

export const links = contentLinks;

/** /follow: the hotel's social accounts. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const { app } = context;
  const hotel = app.hotel;
  if (!hotel) throw notFound();
  const t = await fixedT(app.lang);
  const url = new URL(request.url);
  const links = [
    { network: "facebook", label: "Facebook", href: hotel.fb },
    { network: "line", label: "LINE", href: hotel.line },
    { network: "instagram", label: "Instagram", href: hotel.instagram },
  ].filter((link) => /^https:\/\//.test(link.href));
  return { url: `${url.origin}${url.pathname}`, title: `${t("nav.follow")} | ${hotel.hotel_name}`, hotelName: hotel.hotel_name, links };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  data
    ? pageMeta({
        title: data.title,
        description: data.links.map((link) => link.label).join(" · "),
        url: data.url,
        siteName: data.hotelName,
        lang: siteFromMatches(matches)?.lang ?? "zh-TW",
      })
    : [];

export default function FollowPage() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <main id="main" className="page follow-page">
      <h1>{t("nav.follow")}</h1>
      <p>{t("follow.intro", { hotel: data.hotelName })}</p>
      {data.links.length === 0 ? (
        <p>{t("follow.none")}</p>
      ) : (
        <ul className="follow-links">
          {data.links.map((link) => (
            <li key={link.network}>
              <a className={`follow-link follow-link--${link.network}`} href={link.href} target="_blank" rel="noopener noreferrer">
                {link.label}
              </a>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
