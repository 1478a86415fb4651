import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { LocaleLink } from "~/ui/LocaleLink";
import { NewsList } from "~/features/content/NewsList";
import { fixedT } from "~/i18n/i18next.server";
import { canonicalPath, pageMeta, siteFromMatches } from "~/ui/seo";
import { useSite } from "~/ui/site-data";
import { notFound } from "~/platform/not-found.server";
import { contentLinks } from "~/features/content/links";

export const links = contentLinks;

/** News items per page of /news. */
export const NEWS_PAGE_SIZE = 10;
/** The most news the back end lists (its limit); older items are not listed. */
const NEWS_LIMIT = 100;

/** The hotel's news, newest first, NEWS_PAGE_SIZE a page: /news, /news?page=2… (decision 018). */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const { app } = context;
  if (!app.hotel) throw notFound();
  const url = new URL(request.url);
  const asked = url.searchParams.get("page");
  // Page 1 is /news itself (the Worker sends ?page=1 there); anything but a page number is no page.
  if (asked !== null && !/^[1-9]\d{0,3}$/.test(asked)) throw notFound();
  const page = asked === null ? 1 : Number(asked);
  const news = await app.api.activeAnnouncements({ limit: NEWS_LIMIT });
  const pages = Math.max(1, Math.ceil(news.length / NEWS_PAGE_SIZE));
  if (page > pages) throw notFound();
  const t = await fixedT(app.lang);
  const heading = page === 1 ? t("nav.news") : t("news.page_title", { number: page });
  return {
    url: `${url.origin}${canonicalPath(url.pathname, url.search)}`,
    title: `${heading} | ${app.hotel.hotel_name}`,
    hotelName: app.hotel.hotel_name,
    page,
    pages,
    items: news
      .slice((page - 1) * NEWS_PAGE_SIZE, page * NEWS_PAGE_SIZE)
      .map(({ promotion_id, promotion_title, public_time }) => ({ promotion_id, promotion_title, public_time })),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  data
    ? pageMeta({
        title: data.title,
        description: data.items.map((item) => item.promotion_title).join(" · "),
        url: data.url,
        siteName: data.hotelName,
        lang: siteFromMatches(matches)?.lang ?? "zh-TW",
      })
    : [];

const pageLink = (page: number) => (page === 1 ? "/news" : `/news?page=${page}`);

export default function NewsPage() {
  const data = useLoaderData<typeof loader>();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  const { t } = useTranslation();
  return (
    <main id="main" className="page news-page">
      <h1>{data.page === 1 ? t("nav.news") : t("news.page_title", { number: data.page })}</h1>
      {data.items.length === 0 ? <p>{t("news.none")}</p> : null}
      <NewsList items={data.items} lang={lang} />
      {data.pages > 1 ? (
        <nav className="pagination" aria-label={t("news.pages")}>
          {data.page > 1 ? (
            <LocaleLink to={pageLink(data.page - 1)} rel="prev" className="pagination__step">
              {t("news.previous")}
            </LocaleLink>
          ) : null}
          <ol className="pagination__pages">
            {Array.from({ length: data.pages }, (_, index) => index + 1).map((page) => (
              <li key={page}>
                {page === data.page ? (
                  <span aria-current="page" aria-label={t("news.page", { number: page })}>
                    {page}
                  </span>
                ) : (
                  <LocaleLink to={pageLink(page)} aria-label={t("news.page", { number: page })}>
                    {page}
                  </LocaleLink>
                )}
              </li>
            ))}
          </ol>
          {data.page < data.pages ? (
            <LocaleLink to={pageLink(data.page + 1)} rel="next" className="pagination__step">
              {t("news.next")}
            </LocaleLink>
          ) : null}
        </nav>
      ) : null}
    </main>
  );
}
