/** Accepting an invitation (invitation.server.ts): the password, then enrolment. */
import { Form } from "@remix-run/react";
import type { InvitationView } from "./invitation.server";
import { useDeskWords } from "./words";

export function InvitationPage({ view }: { view: InvitationView }) {
  const w = useDeskWords();
  return (
    <main id="main" className="desk__main desk__narrow">
      <h1>{w("invitation.title")}</h1>
      {view.error ? (
        <p className="alert alert--danger" role="alert">
          {view.error}
        </p>
      ) : null}
      {view.email ? (
        <>
          <p>{w("invitation.intro", { email: view.email })}</p>
          <Form method="post" className="desk__form">
            <input type="hidden" name="csrf" value={view.csrf} />
            <input type="hidden" name="token" value={view.token} />
            <input type="text" name="username" autoComplete="username" value={view.email} readOnly hidden />
            <div className="field">
              <label htmlFor="desk-password">{w("signin.password")}</label>
              <p className="field__help" id="desk-password-hint">
                {w("invitation.password_hint")}
              </p>
              <input
                id="desk-password"
                name="password"
                type="password"
                autoComplete="new-password"
                minLength={8}
                maxLength={200}
                required
                aria-describedby="desk-password-hint"
              />
            </div>
            <button type="submit" className="button">
              {w("invitation.submit")}
            </button>
          </Form>
        </>
      ) : null}
    </main>
  );
}
