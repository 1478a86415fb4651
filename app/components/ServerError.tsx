import { useTranslation } from "~/i18n/react";

/** Any error but a 404 (a failed page, a refused method): a short apology in the guest's language. */
export function ServerError() {
  const { t } = useTranslation();
  return (
    <main id="main" className="not-found">
      <h1>{t("error.title")}</h1>
      <div className="error-box" role="alert">
        <p>{t("error.body")}</p>
      </div>
    </main>
  );
}
