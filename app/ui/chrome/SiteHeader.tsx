/** The site's header: the hotel's logo, its menu, the member menu, the languages and "Book now". */
import { useLocation } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { localizePath } from "~/i18n/languages";
import type { SiteData } from "~/platform/site.server";
import { lodgingUnit, unitKey } from "~/domain/units";
import { LocaleLink } from "~/ui/LocaleLink";
import { SentenceWithName } from "~/ui/PersonName";
import { LanguageSwitcher } from "~/ui/chrome/LanguageSwitcher";
import { BookingButton } from "~/ui/chrome/BookingButton";

function MenuLinks({ site }: { site: SiteData }) {
  const { t } = useTranslation();
  return (
    <ul className="site-nav__list">
      {site.menu.map((item, index) =>
        item.kind === "disabled" ? (
          <li key={index} className="site-nav__item site-nav__item--disabled" aria-hidden="true">
            <span className="site-nav__link" aria-disabled="true" />
          </li>
        ) : (
          <li key={index} className="site-nav__item">
            {item.external ? (
              <a className="site-nav__link" href={item.href} {...(item.newTab ? { target: "_blank", rel: "noopener noreferrer" } : {})}>
                {item.label}
              </a>
            ) : (
              <LocaleLink className="site-nav__link" to={item.href}>
                {item.label ||
                  (item.labelKey
                    ? t(item.labelKey === "nav.rooms" ? unitKey(item.labelKey, lodgingUnit(site.hotel.kind)) : item.labelKey)
                    : "")}
              </LocaleLink>
            )}
          </li>
        ),
      )}
    </ul>
  );
}

/**
 * The hotel's logo for the header's background (spec §3 logo_images: dark and white).
 * - A dark header always shows the white logo.
 * - An overlay header shows the white logo over a page's hero and the dark one elsewhere. Both are
 *   in the page, and the stylesheet shows one. The hidden one is lazy, so it is never fetched.
 * - Without a white logo, the dark one is inverted (`--invert`) where the header is dark.
 */
function HeaderLogo({ site }: { site: SiteData }) {
  const { logoDark, logoWhite } = site.hotel;
  const darkBackground = site.layout.darkHeader === true;
  const overlay = site.layout.header === "overlay";
  if (logoWhite && (darkBackground || !logoDark)) {
    return <img className="site-header__logo" src={logoWhite} alt="" width={180} height={48} />;
  }
  if (!logoDark) return null;
  if (logoWhite && overlay) {
    return (
      <>
        <img className="site-header__logo site-header__logo--dark" src={logoDark} alt="" width={180} height={48} loading="lazy" />
        <img className="site-header__logo site-header__logo--white" src={logoWhite} alt="" width={180} height={48} loading="lazy" />
      </>
    );
  }
  const invert = darkBackground || overlay;
  return (
    <img
      className={invert ? "site-header__logo site-header__logo--invert" : "site-header__logo"}
      src={logoDark}
      alt=""
      width={180}
      height={48}
    />
  );
}

/**
 * Who is signed in, with "My orders" and a sign-out form; or "Sign in", which returns here after.
 * Nothing at all when the hotel's member system is closed. Plain links and a POST form: no JavaScript needed.
 */
export function MemberMenu({ site }: { site: SiteData }) {
  const { t } = useTranslation();
  const location = useLocation();
  if (!site.membership.open) return null;
  const here = `${location.pathname}${location.search}`;
  const member = site.membership.member;
  if (!member) {
    return (
      <a className="member-menu__sign-in" href={`${localizePath(`/${site.product}/login`, site.lang)}?back=${encodeURIComponent(here)}`}>
        {t("member.sign_in")}
      </a>
    );
  }
  return (
    <details className="member-menu">
      <summary>
        {member.name ? (
          <SentenceWithName sentence={(name) => t("member.signed_in_as", { name })} name={member.name} />
        ) : (
          t("member.signed_in")
        )}
      </summary>
      <ul>
        <li>
          <a href={localizePath(`/${site.product}/orders`, site.lang)}>{t("member.my_orders")}</a>
        </li>
        <li>
          <form method="post" action={localizePath(`/${site.product}/logout`, site.lang)}>
            <input type="hidden" name="sign_out_token" value={member.signOutToken} />
            <input type="hidden" name="back" value={here} />
            <button type="submit" className="text-button">
              {t("member.sign_out")}
            </button>
          </form>
        </li>
      </ul>
    </details>
  );
}

export function SiteHeader({ site }: { site: SiteData }) {
  const { t } = useTranslation();
  return (
    <header className={`site-header site-header--${site.layout.header}`}>
      <LocaleLink to="/" className="site-header__brand">
        <HeaderLogo site={site} />
        <span className="site-header__name">{site.hotel.name}</span>
      </LocaleLink>
      <details className="site-nav">
        <summary className="site-nav__toggle">{t("nav.menu")}</summary>
        <nav aria-label={t("nav.menu")}>
          <MenuLinks site={site} />
        </nav>
      </details>
      <nav className="site-nav site-nav--wide" aria-label={t("nav.menu")}>
        <MenuLinks site={site} />
      </nav>
      <div className="site-header__actions">
        <LanguageSwitcher current={site.lang} languages={site.hotel.languages} />
        <MemberMenu site={site} />
        <BookingButton site={site} className="button site-header__book" />
      </div>
    </header>
  );
}
