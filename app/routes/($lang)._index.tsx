import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { Hero } from "~/features/content/Hero";
import { SectionView } from "~/features/content/SectionView";
import { useSite } from "~/ui/site-data";
import { homePage } from "~/features/content/home-page.server";
import { jsonLdText, pageMeta, siteFromMatches } from "~/ui/seo";
import { contentLinks } from "~/features/content/links";

export const links = contentLinks;

export const loader = (args: LoaderFunctionArgs) => homePage(args);

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  data
    ? pageMeta({
        title: data.hotel.seoTitle,
        description: data.hotel.seoDescription,
        url: data.url,
        image: data.banners[0] ? new URL(data.banners[0].image.src, data.url).toString() : undefined,
        siteName: data.hotel.name,
        lang: siteFromMatches(matches)?.lang ?? "zh-TW",
      })
    : [];

export default function Home() {
  const data = useLoaderData<typeof loader>();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  return (
    <main id="main" className="home">
      <Hero data={data} />
      {(site?.layout.sections ?? []).map((section) => (
        <SectionView key={section} section={section} data={data} lang={lang} />
      ))}
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(data.jsonLd) }} />
    </main>
  );
}
