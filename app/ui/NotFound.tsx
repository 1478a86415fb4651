import { useTranslation } from "~/i18n/react";
import { LocaleLink } from "./LocaleLink";

/** The 404 page of spec §2: titled 404, with its error box. */
export function NotFound({ homeLink = true }: { homeLink?: boolean }) {
  const { t } = useTranslation();
  return (
    <main id="main" className="not-found">
      <h1 className="not-found__code">{t("not_found.title")}</h1>
      <div className="error-box" role="alert">
        {/* One sentence, as spec §2 gives it: "Oops! Page not found, Please try to refresh…" */}
        <p>{t("not_found.message")}</p>
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
