/**
 * The challenge inside a booking form (decision 070): the server-drawn picture, the question in
 * words for a guest who cannot see it, one answer field, the token, and a "new challenge" button
 * that sends the same form (everything typed is kept). No script of its own.
 */
import { useTranslation } from "~/i18n/react";

export interface CaptchaFieldChallenge {
  token: string;
  picture: string;
  question: string;
  /** The last answer's error: a translation key or the back end's message. */
  error: string | null;
}

export function CaptchaField({ captcha }: { captcha: CaptchaFieldChallenge | null | undefined }) {
  const { t } = useTranslation();
  if (!captcha) return null;
  const described = ["captcha-question", "captcha-hint", captcha.error ? "captcha-error" : ""].filter(Boolean).join(" ");
  return (
    <fieldset className="captcha-field">
      <legend>{t("captcha.legend")}</legend>
      <p className="field__help">{t("captcha.intro")}</p>
      <img className="captcha-field__picture" src={captcha.picture} alt={t("captcha.picture_alt")} width={220} height={72} />
      <p id="captcha-question">
        <span className="field__help">{t("captcha.question_label")}:</span> {captcha.question}
      </p>
      <div className="field">
        <label htmlFor="captcha_answer">{t("captcha.field")}</label>
        <p className="field__help" id="captcha-hint">
          {t("captcha.hint")}
        </p>
        {/* A new key per challenge: with JavaScript, the field starts empty for each. */}
        <input
          key={captcha.token}
          id="captcha_answer"
          name="captcha_answer"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={32}
          required
          aria-describedby={described}
          aria-invalid={captcha.error ? true : undefined}
        />
        {captcha.error ? (
          <p className="field__error" id="captcha-error">
            {t(captcha.error)}
          </p>
        ) : null}
      </div>
      <input type="hidden" name="captcha_token" value={captcha.token} />
      <button type="submit" name="intent" value="captcha_new" className="button button--secondary" formNoValidate>
        {t("captcha.new")}
      </button>
    </fieldset>
  );
}
