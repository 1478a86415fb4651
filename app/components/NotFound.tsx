import { useTranslation } from "~/i18n/react";
import { LocaleLink } from "./LocaleLink";

/** The 404 page of spec §2: titled 404, with its error box. */
export function NotFound({ homeLink = true }: { homeLink?: boolean }) {
  const { t } = useTranslation();
  return (
    <main id="main" className="not-found">
      <h1 className="not-found__code">{t("not_found.title")}</h1>
      <div className="error-box" role="alert">
        <p className="error-box__heading">{t("not_found.heading")}</p>
        <p>{t("not_found.body")}</p>
      </div>
      {homeLink ? (
        <p>
          <LocaleLink to="/" className="button">
            {t("not_found.home")}
          </LocaleLink>
        </p>
      ) : null}
    </main>
  );
}
