import type { useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { LocaleLink } from "~/ui/LocaleLink";
import { BookingButton } from "~/ui/chrome/BookingButton";
import { useSite } from "~/ui/site-data";
import type { homePage } from "~/features/content/home-page.server";
import { stripLanguage } from "~/i18n/languages";
import { useTranslation } from "~/i18n/react";

export type HomeData = ReturnType<typeof useLoaderData<typeof homePage>>;
type Banner = HomeData["banners"][number];

/** A banner with a link opens it in the same tab: a site path in the guest's language, or the hotel's URL. */
function BannerLink({ banner, label, children }: { banner: Banner; label: string; children: ReactNode }) {
  // The image is the link's content; without alt text, the banner's title names it.
  const name = banner.image.alt ? {} : { "aria-label": label };
  if (banner.link.startsWith("/")) {
    return (
      <LocaleLink to={stripLanguage(banner.link)} className="hero__link" {...name}>
        {children}
      </LocaleLink>
    );
  }
  return (
    <a href={banner.link} className="hero__link" {...name}>
      {children}
    </a>
  );
}

export function Hero({ data }: { data: HomeData }) {
  const site = useSite();
  const { t } = useTranslation();
  const [first, ...rest] = data.banners;
  if (!first) return <h1 className="home__title">{data.hotel.name}</h1>;
  return (
    <section className="hero" aria-label={data.hotel.name}>
      <div className="hero__slides">
        {[first, ...rest].map((banner, index) => {
          const image = (
            <img
              src={banner.image.src}
              alt={banner.image.alt}
              width={banner.image.width}
              height={banner.image.height}
              loading={index === 0 ? "eager" : "lazy"}
              {...(index === 0 ? { fetchpriority: "high" } : {})}
            />
          );
          return (
            <figure className="hero__slide" key={banner.image.src} id={`slide-${index + 1}`}>
              {banner.link ? (
                <BannerLink banner={banner} label={banner.title || data.hotel.name}>
                  {image}
                </BannerLink>
              ) : (
                image
              )}
              <figcaption className="hero__text">
                {index === 0 ? <h1>{banner.title || data.hotel.name}</h1> : <p className="hero__title">{banner.title}</p>}
                {banner.subtitle ? <p className="hero__subtitle">{banner.subtitle}</p> : null}
                {index === 0 && site ? <BookingButton site={site} className="button hero__book" /> : null}
              </figcaption>
            </figure>
          );
        })}
      </div>
      {rest.length > 0 ? (
        <nav className="hero__dots" aria-label={t("home.slides")}>
          {data.banners.map((banner, index) => (
            <a key={banner.image.src} href={`#slide-${index + 1}`} aria-label={t("home.slide", { number: index + 1 })} />
          ))}
        </nav>
      ) : null}
    </section>
  );
}
