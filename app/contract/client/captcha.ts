/** The captcha (spec §7, decision 070): whether a guest needs a challenge, and the answer's check. */
import { CaptchaPassSchema, CaptchaTriggerSchema } from "../schemas";
import type { ClientClass } from "./core";

/** The calls of the captcha. */
export function withCaptchaCalls<TBase extends ClientClass>(Base: TBase) {
  return class CaptchaCalls extends Base {
    /** POST /api/captcha/trigger: whether this guest needs a challenge for `action` now, and one when so (decision 070). */
    captchaTrigger(action: string, subject: { email?: string; phone?: string } = {}) {
      return this.call(CaptchaTriggerSchema, "POST", "/api/captcha/trigger", { body: { ...subject, action, domain: this.options.domain } });
    }

    /** POST /api/captcha/verify: a pass for a right answer; a refusal carries a new challenge in its `data`. */
    captchaVerify(action: string, token: string, answer: string) {
      return this.call(CaptchaPassSchema, "POST", "/api/captcha/verify", { body: { action, token, answer, domain: this.options.domain } });
    }
  };
}
