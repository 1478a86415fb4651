/**
 * The staff API's staff calls (decision 149): sign-in in two steps, enrolment, the signed-in staff
 * member, sign-out, the team and the audit log. Each call after the password takes the desk
 * session's token first and sends it in the `x-desk-session` header, never a member's token.
 */
import * as v from "valibot";
import { DESK_SESSION_HEADER } from "../desk";
import {
  DeskAuditSchema,
  DeskChangeSchema,
  DeskEnrolmentSchema,
  DeskInvitationSchema,
  DeskMeSchema,
  DeskSignInSchema,
  DeskStaffListSchema,
} from "../desk-staff-schemas";
import type { ClientClass } from "./core";

type Role = "owner" | "front_desk" | "read_only";

export function withDeskStaffCalls<TBase extends ClientClass>(Base: TBase) {
  return class DeskStaffCalls extends Base {
    /** The desk's calls never carry a member's Bearer token. */
    private desk(session: string | null) {
      const headers: Record<string, string> = session ? { [DESK_SESSION_HEADER]: session } : {};
      return { client: this.withMemberToken(null), headers };
    }

    /** POST /api/desk/sign-in: email and password (and the captcha when asked) → a session at stage 'password'. */
    deskSignIn(input: { email: string; password: string; captcha_token?: string; captcha_answer?: string }) {
      const { client } = this.desk(null);
      return client.call(DeskSignInSchema, "POST", "/api/desk/sign-in", { body: { ...input, domain: this.options.domain } });
    }

    /** POST /api/desk/sign-in/code: the authenticator's code or a recovery code → a new session at stage 'full'. */
    deskSignInCode(session: string, code: string) {
      const { client, headers } = this.desk(session);
      return client.call(DeskSignInSchema, "POST", "/api/desk/sign-in/code", { body: { code, domain: this.options.domain }, headers });
    }

    /** GET /api/desk/enrolment: the secret offered, as text, URI and QR code. */
    deskEnrolment(session: string) {
      const { client, headers } = this.desk(session);
      return client.call(DeskEnrolmentSchema, "GET", "/api/desk/enrolment", { query: this.hotel, headers });
    }

    /** POST /api/desk/enrolment: the first code confirms the secret → a full session and ten recovery codes. */
    deskConfirmEnrolment(session: string, code: string) {
      const { client, headers } = this.desk(session);
      return client.call(DeskSignInSchema, "POST", "/api/desk/enrolment", { body: { code, domain: this.options.domain }, headers });
    }

    /** GET /api/desk/me: the staff member signed in; 401 when the session names nobody. */
    deskMe(session: string) {
      const { client, headers } = this.desk(session);
      return client.call(DeskMeSchema, "GET", "/api/desk/me", { query: this.hotel, headers });
    }

    /** POST /api/desk/sign-out: the session ends. */
    deskSignOut(session: string) {
      const { client, headers } = this.desk(session);
      return client.call(v.object({ signed_out: v.boolean() }), "POST", "/api/desk/sign-out", { body: this.hotel, headers });
    }

    /** GET /api/desk/staff (owner). */
    deskStaff(session: string) {
      const { client, headers } = this.desk(session);
      return client.call(DeskStaffListSchema, "GET", "/api/desk/staff", { query: this.hotel, headers });
    }

    /** POST /api/desk/staff/invite (owner): an emailed one-time link. */
    deskInvite(session: string, input: { form_key: string; email: string; name: string; role: Role }) {
      const { client, headers } = this.desk(session);
      return client.call(DeskChangeSchema, "POST", "/api/desk/staff/invite", { body: { ...input, domain: this.options.domain }, headers });
    }

    /** POST /api/desk/staff/role (owner). */
    deskChangeRole(session: string, input: { form_key: string; staff_id: number; role: Role }) {
      const { client, headers } = this.desk(session);
      return client.call(DeskChangeSchema, "POST", "/api/desk/staff/role", { body: { ...input, domain: this.options.domain }, headers });
    }

    /** POST /api/desk/staff/remove (owner): their sessions end at once. */
    deskRemoveStaff(session: string, input: { form_key: string; staff_id: number }) {
      const { client, headers } = this.desk(session);
      return client.call(DeskChangeSchema, "POST", "/api/desk/staff/remove", { body: { ...input, domain: this.options.domain }, headers });
    }

    /** GET /api/desk/invitation: who a working invitation link names. */
    deskInvitation(token: string) {
      const { client } = this.desk(null);
      return client.call(DeskInvitationSchema, "GET", "/api/desk/invitation", { query: { ...this.hotel, token } });
    }

    /** POST /api/desk/invitation: the link spent and the password set → a session at stage 'password' (enrolment next). */
    deskAcceptInvitation(token: string, password: string) {
      const { client } = this.desk(null);
      return client.call(DeskSignInSchema, "POST", "/api/desk/invitation", { body: { token, password, domain: this.options.domain } });
    }

    /** GET /api/desk/audit (owner): a page of the audit log, newest first, older than `before`. */
    deskAudit(session: string, before: number | null) {
      const { client, headers } = this.desk(session);
      return client.call(DeskAuditSchema, "GET", "/api/desk/audit", { query: { ...this.hotel, before }, headers });
    }
  };
}
