import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { json } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";

/** The hotel's home page. */
export async function loader({ context }: LoaderFunctionArgs) {
  const hotel = context.app.hotel;
  if (!hotel) throw new Response(null, { status: 404 });
  return json({
    name: hotel.hotel_name,
    seoTitle: hotel.seo_title || hotel.hotel_name,
    seoDescription: hotel.seo_content,
    introduction: hotel.introduction,
    banners: hotel.banner_images.map((image, index) => ({
      image,
      title: hotel.banner_titles[index]?.title ?? "",
      subtitle: hotel.banner_titles[index]?.subtitle ?? "",
    })),
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.seoTitle }, { name: "description", content: data.seoDescription }] : [];

export default function Home() {
  const data = useLoaderData<typeof loader>();
  const hero = data.banners[0];
  return (
    <main id="main" className="home">
      {hero ? (
        <section className="hero">
          <img
            src={hero.image.src}
            alt={hero.image.alt}
            width={hero.image.width}
            height={hero.image.height}
            fetchPriority="high"
          />
          <div className="hero__text">
            <h1>{hero.title || data.name}</h1>
            {hero.subtitle ? <p>{hero.subtitle}</p> : null}
          </div>
        </section>
      ) : (
        <h1>{data.name}</h1>
      )}
      {/* Hotel-provided HTML, shown as plain text here; the content pages render it through the sanitizer. */}
      <section className="introduction">
        <p>{data.introduction.replace(/<[^>]*>/g, " ")}</p>
      </section>
    </main>
  );
}
