/**
 * Enrolment (enrolment.server.ts): the QR code (an SVG the back end drew, put in the page as it
 * is: it is the qrcode library's own markup of paths, never text a person typed), the secret and
 * the URI to type instead, the first code; then the recovery codes, shown once.
 */
import { Form } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import type { Language } from "~/i18n/languages";
import type { EnrolmentView } from "./enrolment.server";
import { deskPath } from "./paths";
import { useDeskWords } from "./words";

export function EnrolmentPage({ view }: { view: EnrolmentView }) {
  const w = useDeskWords();
  const { i18n } = useTranslation();
  if (view.step === "recovery") {
    return (
      <main id="main" className="desk__main desk__narrow">
        <h1>{w("recovery.title")}</h1>
        <p>{w("recovery.intro")}</p>
        <ol className="desk__codes" data-recovery-codes="">
          {view.codes.map((code) => (
            <li key={code}>
              <code>{code}</code>
            </li>
          ))}
        </ol>
        <p>
          <a className="button" href={deskPath(i18n.language as Language)}>
            {w("recovery.continue")}
          </a>
        </p>
      </main>
    );
  }
  return (
    <main id="main" className="desk__main desk__narrow">
      <h1>{w("enrol.title")}</h1>
      <p>{w("enrol.intro")}</p>
      {view.error ? (
        <p className="alert alert--danger" role="alert">
          {view.error}
        </p>
      ) : null}
      <figure className="desk__qr" role="img" aria-label={w("enrol.qr_label")} dangerouslySetInnerHTML={{ __html: view.offer.qr_svg }} />
      <dl className="desk__secret">
        <dt>{w("enrol.secret")}</dt>
        <dd>
          <code data-totp-secret="">{view.offer.secret}</code>
        </dd>
        <dt>{w("enrol.uri")}</dt>
        <dd>
          <code className="desk__uri">{view.offer.uri}</code>
        </dd>
      </dl>
      <Form method="post" className="desk__form">
        <input type="hidden" name="csrf" value={view.csrf} />
        <div className="field">
          <label htmlFor="desk-code">{w("code.field")}</label>
          <input id="desk-code" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]{6,8}" maxLength={8} required />
        </div>
        <button type="submit" className="button">
          {w("enrol.submit")}
        </button>
      </Form>
    </main>
  );
}
