import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { localizePath, stripLanguage, type Language } from "~/i18n/languages";
import { LocaleLink } from "./LocaleLink";

export interface SiteChromeData {
  lang: Language;
  product: string;
  hotel: {
    name: string;
    logo: string;
    languages: Language[];
    phone: string;
    email: string;
    address: string;
    registration: string;
    businessNumber: string;
  };
}

const LANGUAGE_NAMES: Record<Language, string> = {
  "zh-TW": "繁體中文",
  "zh-CN": "简体中文",
  "en-US": "English",
  "ja-JP": "日本語",
  "ko-KR": "한국어",
};

/** Links to the current page in each of the hotel's languages; works without JavaScript. */
export function LanguageSwitcher({ current, languages }: { current: Language; languages: Language[] }) {
  const location = useLocation();
  const { t } = useTranslation();
  const path = stripLanguage(location.pathname);
  if (languages.length < 2) return null;
  return (
    <details className="language-switcher">
      <summary>
        <span className="visually-hidden">{t("nav.language")}: </span>
        {LANGUAGE_NAMES[current]}
      </summary>
      <ul>
        {languages.map((language) => (
          <li key={language}>
            <Link
              to={`${localizePath(path, language)}${location.search}`}
              hrefLang={language}
              lang={language}
              aria-current={language === current ? "true" : undefined}
              reloadDocument
            >
              {LANGUAGE_NAMES[language]}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}

export function SiteHeader({ site }: { site: SiteChromeData }) {
  const { t } = useTranslation();
  return (
    <header className="site-header">
      <LocaleLink to="/" className="site-header__brand">
        {site.hotel.logo ? <img src={site.hotel.logo} alt="" width={120} height={32} /> : null}
        <span>{site.hotel.name}</span>
      </LocaleLink>
      <LanguageSwitcher current={site.lang} languages={site.hotel.languages} />
      <LocaleLink to={`/${site.product}/booking`} className="button site-header__book">
        {t("nav.book")}
      </LocaleLink>
    </header>
  );
}

export function SiteFooter({ site }: { site: SiteChromeData }) {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      <section>
        <h2>{site.hotel.name}</h2>
        <p>{site.hotel.address}</p>
        <p>
          <a href={`tel:${site.hotel.phone.replace(/[^+\d]/g, "")}`}>{site.hotel.phone}</a>
          {" · "}
          <a href={`mailto:${site.hotel.email}`}>{site.hotel.email}</a>
        </p>
      </section>
      {site.hotel.registration ? (
        <section>
          <h2>{t("footer.registration")}</h2>
          <p>
            {site.hotel.registration}
            {site.hotel.businessNumber ? ` · ${site.hotel.businessNumber}` : ""}
          </p>
        </section>
      ) : null}
      <p className="site-footer__rights">
        © {site.hotel.name} · {t("footer.rights")}
      </p>
    </footer>
  );
}
