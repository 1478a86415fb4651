/** The site's footer: the hotel's contact and links to the sections it has. */
import { useTranslation } from "~/i18n/react";
import type { SiteData } from "~/platform/site.server";
import { LocaleLink } from "~/ui/LocaleLink";
import { PhoneLink } from "~/ui/PhoneLink";

/** The footer's pages, each shown only when the hotel has that section (About always). */
const FOOTER_LINKS: readonly { to: string; labelKey: string; section: keyof SiteData["sections"] | null }[] = [
  { to: "/about", labelKey: "nav.about", section: null },
  { to: "/facilities", labelKey: "nav.facilities", section: "facilities" },
  { to: "/event", labelKey: "nav.promotions", section: "promotions" },
  { to: "/news", labelKey: "nav.news", section: "news" },
  { to: "/follow", labelKey: "nav.follow", section: "follow" },
];

export function SiteFooter({ site }: { site: SiteData }) {
  const { t } = useTranslation();
  const { hotel } = site;
  return (
    <footer className="site-footer">
      <section>
        <h2>{hotel.name}</h2>
        <address>
          <p>{hotel.address}</p>
          <p>
            <PhoneLink phone={hotel.phone} />
          </p>
          <p>
            <a href={`mailto:${hotel.email}`}>{hotel.email}</a>
          </p>
        </address>
      </section>
      <section>
        <h2>{t("footer.explore")}</h2>
        <ul className="site-footer__links">
          {FOOTER_LINKS.filter((link) => link.section === null || site.sections[link.section]).map((link) => (
            <li key={link.to}>
              <LocaleLink to={link.to}>{t(link.labelKey)}</LocaleLink>
            </li>
          ))}
        </ul>
      </section>
      {hotel.registration || hotel.businessNumber ? (
        <section>
          <h2>{t("footer.registration")}</h2>
          <p>{hotel.registration}</p>
          {hotel.businessRegistration ? <p>{hotel.businessRegistration}</p> : null}
          {hotel.businessNumber ? <p>{t("footer.business_number", { number: hotel.businessNumber })}</p> : null}
        </section>
      ) : null}
      <p className="site-footer__rights">
        © {hotel.name} · {t("footer.rights")}
      </p>
    </footer>
  );
}
