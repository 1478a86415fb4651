/**
 * The hotel's staff, managed by its owner (decision 149): the list, an invitation by an emailed
 * one-time link (72 hours, used once, on this hotel's site only), a role changed, a member of
 * staff removed (their sessions deleted in the same batch: their next request is signed out). No
 * change may leave the hotel without an active owner: the guarded UPDATE fails its CHECK instead,
 * rolling the whole batch back. Every change is audit-logged with its form's one-time key.
 */
import * as v from "valibot";
import { randomToken, sha256Hex } from "~/lib/crypto";
import { escapeHtml } from "~/lib/html";
import { localizePath } from "~/i18n/languages";
import { ApiError, ok, parseInput, readJsonBody } from "~/backend/http.server";
import type { BackendContext, BackendRoute } from "~/backend/route";
import { hotelNameIn, mainLanguage, requireHotel, type HotelRow } from "~/backend/hotels/hotels.server";
import { hashPassword } from "~/backend/account/passwords";
import { DESK_PATH } from "~/contract/desk";
import { MAY_MANAGE_STAFF, STAFF_ROLES, formKeyUsed, requireStaff, type StaffPrincipal } from "./staff.server";
import { FormKey, REFUSED_VALUE, applyAudited, type Applied } from "./staff-forms.server";
import { newSession } from "./staff-sessions.server";
import { deskText } from "./desk-text";
import { INVITE_LINK_HOURS } from "./invite-link";

const Domain = v.pipe(v.string(), v.maxLength(253));
const Role = v.picklist(STAFF_ROLES);
const StaffId = v.pipe(v.number(), v.integer(), v.minValue(1));
const InviteBody = v.object({
  domain: Domain,
  form_key: FormKey,
  email: v.pipe(v.string(), v.trim(), v.maxLength(200), v.email()),
  name: v.pipe(v.string(), v.trim(), v.maxLength(100)),
  role: Role,
});
const RoleBody = v.object({ domain: Domain, form_key: FormKey, staff_id: StaffId, role: Role });
const RemoveBody = v.object({ domain: Domain, form_key: FormKey, staff_id: StaffId });
const AcceptBody = v.object({
  domain: Domain,
  token: v.pipe(v.string(), v.maxLength(100)),
  // The members' password rule (account/signup.server.ts).
  password: v.pipe(v.string(), v.minLength(8), v.maxLength(200)),
});

/** Another active owner than `staffId` remains: the guard of every change that could take the last one away. */
const OTHER_OWNER = `(SELECT COUNT(*) FROM staff o WHERE o.hotel_id = ?1 AND o.role = 'owner' AND o.status = 'active' AND o.id != ?2) > 0`;

interface StaffRow {
  id: number;
  email: string;
  name: string;
  role: string;
  status: string;
}

/** This hotel's staff member of that id; another hotel's (or a removed one) is not found. */
async function staffOfHotel(ctx: BackendContext, hotel: HotelRow, id: number): Promise<StaffRow> {
  const row = await ctx.db
    .prepare("SELECT id, email, name, role, status FROM staff WHERE id = ? AND hotel_id = ? AND status != 'removed'")
    .bind(id, hotel.id)
    .first<StaffRow>();
  if (!row) throw new ApiError(404, "desk_staff_not_found");
  return row;
}

function answer(applied: Applied, refusal: ApiError, data: Record<string, unknown> = {}): Response {
  if (applied === "refused") throw refusal;
  return ok({ ...data, already_done: applied === "already_done" });
}

const audit = (ctx: BackendContext, hotel: HotelRow, staff: StaffPrincipal, formKey: string) => ({
  hotelId: hotel.id,
  staff,
  ip: ctx.clientIp,
  formKey,
});

/** The invitation's link: on this hotel's site, in the hotel's main language. */
function inviteLink(ctx: BackendContext, hotel: HotelRow, token: string): string {
  return `${ctx.site.origin}${localizePath(`${DESK_PATH}/invitation`, mainLanguage(hotel))}?${new URLSearchParams({ token })}`;
}

function inviteMail(ctx: BackendContext, hotel: HotelRow, to: string, inviter: string, link: string): D1PreparedStatement {
  const lang = mainLanguage(hotel);
  const hotelName = hotelNameIn(hotel, lang);
  const subject = deskText(lang, "mail.invite.subject", { hotel: hotelName });
  const intro = deskText(lang, "mail.invite.body", { hotel: hotelName, inviter });
  const outro = deskText(lang, "mail.invite.expiry", { hours: INVITE_LINK_HOURS });
  const text = [intro, "", link, "", outro].join("\n");
  const html = `<!DOCTYPE html><html lang="${lang}"><body><p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>${escapeHtml(outro)}</p></body></html>`;
  return ctx.db
    .prepare(
      `INSERT INTO mail_outbox (hotel_id, order_id, kind, lang, to_address, site_origin, product, subject, text_body, html_body)
       VALUES (?, NULL, 'staff_invite', ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(hotel.id, lang, to, ctx.site.origin, ctx.site.product, subject, text, html);
}

async function listStaff(ctx: BackendContext): Promise<Response> {
  const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
  await requireStaff(ctx, hotel, MAY_MANAGE_STAFF);
  const { results } = await ctx.db
    .prepare(
      `SELECT id, email, name, role, status, totp_secret != '' AS enrolled, created_at FROM staff
       WHERE hotel_id = ? AND status != 'removed' ORDER BY role = 'owner' DESC, email LIMIT 200`,
    )
    .bind(hotel.id)
    .all<StaffRow & { enrolled: number; created_at: string }>();
  return ok({ staff: results.map((row) => ({ ...row, enrolled: row.enrolled === 1 })) });
}

/**
 * An invitation: the staff row (invited; a removed one of that address invited afresh, without
 * its old password, second factor or recovery codes), its link and its email, written whole now.
 */
async function invite(ctx: BackendContext): Promise<Response> {
  const body = parseInput(InviteBody, await readJsonBody(ctx.request));
  const hotel = await requireHotel(ctx.db, body.domain);
  const owner = await requireStaff(ctx, hotel, MAY_MANAGE_STAFF);
  const email = body.email.toLowerCase();
  if (await formKeyUsed(ctx.db, hotel.id, body.form_key)) return ok({ email, already_done: true });
  const existing = await ctx.db
    .prepare("SELECT status FROM staff WHERE hotel_id = ? AND email = ?")
    .bind(hotel.id, email)
    .first<{ status: string }>();
  if (existing && existing.status !== "removed") throw new ApiError(409, "desk_staff_exists", {}, "email");
  const token = randomToken();
  const staffId = "(SELECT id FROM staff WHERE hotel_id = ? AND email = ?)";
  const applied = await applyAudited(
    ctx,
    {
      ...audit(ctx, hotel, owner, body.form_key),
      action: "staff.invite",
      subject: `staff:${email}`,
      after: { email, name: body.name, role: body.role },
    },
    [
      ctx.db
        .prepare(
          `INSERT INTO staff (hotel_id, email, name, role, lang, status) VALUES (?1, ?2, ?3, ?4, ?5, 'invited')
           ON CONFLICT (hotel_id, email) DO UPDATE SET name = ?3, role = ?4, status = CASE WHEN status = 'removed' THEN 'invited' ELSE '${REFUSED_VALUE}' END,
             password_hash = '', totp_secret = '', totp_last_step = 0, removed_at = NULL`,
        )
        .bind(hotel.id, email, body.name, body.role, mainLanguage(hotel)),
      ctx.db.prepare(`DELETE FROM staff_recovery_codes WHERE staff_id = ${staffId}`).bind(hotel.id, email),
      ctx.db
        .prepare(`INSERT INTO staff_links (token_hash, hotel_id, staff_id, purpose, expires_at) VALUES (?, ?, ${staffId}, 'invite', ?)`)
        .bind(await sha256Hex(token), hotel.id, hotel.id, email, new Date(ctx.now.getTime() + INVITE_LINK_HOURS * 3_600_000).toISOString()),
      inviteMail(ctx, hotel, email, owner.name || owner.email, inviteLink(ctx, hotel, token)),
    ],
  );
  return answer(applied, new ApiError(409, "desk_staff_exists", {}, "email"), { email });
}

async function changeRole(ctx: BackendContext): Promise<Response> {
  const body = parseInput(RoleBody, await readJsonBody(ctx.request));
  const hotel = await requireHotel(ctx.db, body.domain);
  const owner = await requireStaff(ctx, hotel, MAY_MANAGE_STAFF);
  if (await formKeyUsed(ctx.db, hotel.id, body.form_key)) return ok({ already_done: true });
  const target = await staffOfHotel(ctx, hotel, body.staff_id);
  const applied = await applyAudited(
    ctx,
    {
      ...audit(ctx, hotel, owner, body.form_key),
      action: "staff.role",
      subject: `staff:${target.id}`,
      before: { role: target.role },
      after: { role: body.role },
    },
    [
      ctx.db
        .prepare(
          `UPDATE staff SET role = CASE WHEN ?3 = 'owner' OR role != 'owner' OR ${OTHER_OWNER} THEN ?3 ELSE '${REFUSED_VALUE}' END
           WHERE id = ?2 AND hotel_id = ?1 AND status != 'removed'`,
        )
        .bind(hotel.id, target.id, body.role),
    ],
  );
  return answer(applied, new ApiError(409, "desk_last_owner"), { role: body.role });
}

async function removeStaff(ctx: BackendContext): Promise<Response> {
  const body = parseInput(RemoveBody, await readJsonBody(ctx.request));
  const hotel = await requireHotel(ctx.db, body.domain);
  const owner = await requireStaff(ctx, hotel, MAY_MANAGE_STAFF);
  if (await formKeyUsed(ctx.db, hotel.id, body.form_key)) return ok({ already_done: true });
  const target = await staffOfHotel(ctx, hotel, body.staff_id);
  const applied = await applyAudited(
    ctx,
    {
      ...audit(ctx, hotel, owner, body.form_key),
      action: "staff.remove",
      subject: `staff:${target.id}`,
      before: { email: target.email, role: target.role, status: target.status },
      after: { status: "removed" },
    },
    [
      ctx.db
        .prepare(
          `UPDATE staff SET status = CASE WHEN role != 'owner' OR ${OTHER_OWNER} THEN 'removed' ELSE '${REFUSED_VALUE}' END, removed_at = ?3
           WHERE id = ?2 AND hotel_id = ?1 AND status != 'removed'`,
        )
        .bind(hotel.id, target.id, ctx.now.toISOString()),
      ctx.db.prepare("DELETE FROM staff_sessions WHERE staff_id = ? AND hotel_id = ?").bind(target.id, hotel.id),
      ctx.db.prepare("DELETE FROM staff_links WHERE staff_id = ? AND hotel_id = ?").bind(target.id, hotel.id),
    ],
  );
  return answer(applied, new ApiError(409, "desk_last_owner"));
}

/** The invitation a link names, while it works: at this hotel, unused and unexpired. */
async function openInvitation(ctx: BackendContext, hotel: HotelRow, token: string) {
  const row = token
    ? await ctx.db
        .prepare(
          `SELECT t.id, t.email, t.name, t.role FROM staff_links l JOIN staff t ON t.id = l.staff_id
           WHERE l.token_hash = ? AND l.hotel_id = ? AND l.purpose = 'invite' AND l.used_at IS NULL AND l.expires_at > ?
             AND t.hotel_id = l.hotel_id AND t.status = 'invited'`,
        )
        .bind(await sha256Hex(token), hotel.id, ctx.now.toISOString())
        .first<{ id: number; email: string; name: string; role: string }>()
    : null;
  if (!row) throw new ApiError(404, "desk_invite_invalid");
  return row;
}

/**
 * Accepting: the link is spent and the password set in one batch (the UPDATE of the staff row is
 * guarded by the link spent in this very batch), then a half session goes on to enrolment.
 */
async function acceptInvitation(ctx: BackendContext): Promise<Response> {
  const body = parseInput(AcceptBody, await readJsonBody(ctx.request));
  const hotel = await requireHotel(ctx.db, body.domain);
  const invited = await openInvitation(ctx, hotel, body.token);
  const tokenHash = await sha256Hex(body.token);
  const now = ctx.now.toISOString();
  const [spent, activated] = await ctx.db.batch([
    ctx.db
      .prepare("UPDATE staff_links SET used_at = ? WHERE token_hash = ? AND hotel_id = ? AND used_at IS NULL AND expires_at > ?")
      .bind(now, tokenHash, hotel.id, now),
    ctx.db
      .prepare(
        `UPDATE staff SET password_hash = ?, status = 'active'
         WHERE id = (SELECT staff_id FROM staff_links WHERE token_hash = ? AND used_at = ?) AND hotel_id = ? AND status = 'invited'
         RETURNING id`,
      )
      .bind(await hashPassword(body.password), tokenHash, now, hotel.id),
  ]);
  if ((spent?.meta.changes ?? 0) === 0 || (activated?.results.length ?? 0) === 0) throw new ApiError(404, "desk_invite_invalid");
  const session = await newSession(ctx, hotel.id, invited.id, "password");
  await ctx.db.batch([
    ctx.db
      .prepare(
        `INSERT INTO audit_log (hotel_id, staff_id, staff_email, ip, action, subject, after) VALUES (?, ?, ?, ?, 'staff.accept_invite', ?, ?)`,
      )
      .bind(hotel.id, invited.id, invited.email, ctx.clientIp.slice(0, 64), `staff:${invited.id}`, JSON.stringify({ status: "active" })),
    session.statement,
  ]);
  return ok({ token: session.token, stage: "password", enrol: true, email: invited.email });
}

export const staffTeamRoutes: BackendRoute[] = [
  // x-desk-session (owner), ?domain → { staff: [...] }
  { method: "GET", path: "/api/desk/staff", handler: listStaff },
  // x-desk-session (owner), { domain, form_key, email, name, role } → { email, already_done }
  { method: "POST", path: "/api/desk/staff/invite", handler: invite },
  // x-desk-session (owner), { domain, form_key, staff_id, role } → { role, already_done }
  { method: "POST", path: "/api/desk/staff/role", handler: changeRole },
  // x-desk-session (owner), { domain, form_key, staff_id } → { already_done }
  { method: "POST", path: "/api/desk/staff/remove", handler: removeStaff },
  {
    // ?domain&token → who is invited, while the link works.
    method: "GET",
    path: "/api/desk/invitation",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      const invited = await openInvitation(ctx, hotel, (ctx.url.searchParams.get("token") ?? "").slice(0, 100));
      return ok({ email: invited.email, name: invited.name, role: invited.role });
    },
  },
  // { domain, token, password } → { token, stage: 'password', enrol: true }
  { method: "POST", path: "/api/desk/invitation", handler: acceptInvitation },
];
