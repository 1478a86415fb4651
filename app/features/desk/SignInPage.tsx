/** The desk's sign-in, step by step (sign-in.server.ts): email and password (and the captcha when asked), then the code. */
import { Form } from "@remix-run/react";
import { CaptchaField } from "~/features/captcha/CaptchaField";
import type { SignInView } from "./sign-in.server";
import { useDeskWords } from "./words";

export function SignInPage({ view }: { view: SignInView }) {
  const w = useDeskWords();
  if (view.step === "external") return null;
  const code = view.step === "code";
  return (
    <main id="main" className="desk__main desk__narrow">
      <h1>{code ? w("code.title") : w("signin.title")}</h1>
      {view.notice ? (
        <p className="alert alert--info" role="status">
          {w(view.notice === "signed_out" ? "signin.signed_out" : "signin.session_ended")}
        </p>
      ) : null}
      {view.error ? (
        <p className="alert alert--danger" role="alert">
          {view.error}
        </p>
      ) : null}
      {code ? (
        <>
          <p>{w("code.intro")}</p>
          <Form method="post" className="desk__form">
            <input type="hidden" name="csrf" value={view.csrf} />
            <div className="field">
              <label htmlFor="desk-code">{w("code.field")}</label>
              <p className="field__help" id="desk-code-hint">
                {w("code.hint")}
              </p>
              <input
                id="desk-code"
                name="code"
                inputMode="text"
                autoComplete="one-time-code"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={20}
                required
                autoFocus
                aria-describedby="desk-code-hint"
              />
            </div>
            <button type="submit" name="intent" value="code" className="button">
              {w("code.submit")}
            </button>
            <button type="submit" name="intent" value="restart" className="button button--secondary" formNoValidate>
              {w("code.restart")}
            </button>
          </Form>
        </>
      ) : (
        <>
          <p>{w("signin.intro")}</p>
          <Form method="post" className="desk__form">
            <input type="hidden" name="csrf" value={view.csrf} />
            <div className="field">
              <label htmlFor="desk-email">{w("signin.email")}</label>
              <input id="desk-email" name="email" type="email" autoComplete="username" defaultValue={view.email} maxLength={200} required />
            </div>
            <div className="field">
              <label htmlFor="desk-password">{w("signin.password")}</label>
              <input id="desk-password" name="password" type="password" autoComplete="current-password" maxLength={200} required />
            </div>
            <CaptchaField captcha={view.captcha} />
            <button type="submit" name="intent" value="password" className="button">
              {w("signin.submit")}
            </button>
          </Form>
        </>
      )}
    </main>
  );
}
