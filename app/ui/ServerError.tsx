import { useTranslation } from "~/i18n/react";

/**
 * Any error but a 404 (a failed page, a refused method): a short apology in the guest's language. A
 * refused form (403: a stale sign-out token, a body that is not our form) says what to do instead.
 */
export function ServerError({ status = 500 }: { status?: number }) {
  const { t } = useTranslation();
  return (
    <main id="main" className="not-found">
      <h1>{t("error.title")}</h1>
      <div className="error-box" role="alert">
        <p>{t(status === 403 ? "form.error.expired" : "error.body")}</p>
      </div>
    </main>
  );
}
