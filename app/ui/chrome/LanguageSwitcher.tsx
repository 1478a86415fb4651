/** Links to the current page in each of the hotel's languages; works without JavaScript. */
import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { LANGUAGE_NAMES, localizePath, stripLanguage, type Language } from "~/i18n/languages";

/** Links to the current page in each of the hotel's languages; works without JavaScript. */
export function LanguageSwitcher({ current, languages }: { current: Language; languages: Language[] }) {
  const location = useLocation();
  const { t } = useTranslation();
  if (languages.length < 2) return null;
  const path = stripLanguage(location.pathname);
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
