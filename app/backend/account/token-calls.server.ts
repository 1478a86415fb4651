/**
 * The account service's calls with a member token (spec §7 Login, decision 035): one-tap (who the
 * token names) and {pms}/oauth/token/exchange (a token valid at this hotel only).
 */
import { ApiError, ok, readJsonBody } from "~/backend/http.server";
import type { BackendContext } from "~/backend/route";
import { safeEqual } from "~/lib/crypto";
import { findClient } from "./clients.server";
import { issuePmsToken, tokenMember } from "./tokens.server";
import { bearerToken } from "./members.server";
import { readForm } from "~/platform/forms.server";

/** A body of the token-style calls: a form (the OAuth convention) or JSON. */
async function readFields(request: Request): Promise<Record<string, unknown>> {
  if ((request.headers.get("content-type") ?? "").includes("application/x-www-form-urlencoded")) {
    // An empty or broken form names no grant: the same refusal as a wrong one.
    const form = (await readForm(request)) ?? new FormData();
    return Object.fromEntries([...form.entries()].map(([key, value]) => [key, typeof value === "string" ? value : ""]));
  }
  const body = await readJsonBody(request);
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new ApiError(400, "body_not_json");
  return body as Record<string, unknown>;
}

export const text = (value: unknown) => (typeof value === "string" ? value : "");

async function requireTokenMember(ctx: BackendContext) {
  const token = bearerToken(ctx.request);
  const member = token ? await tokenMember(ctx.db, token, ctx.now) : null;
  if (!token || !member) throw new ApiError(401, "invalid_token");
  return { token, member };
}

export async function oneTap(ctx: BackendContext): Promise<Response> {
  const { token, member } = await requireTokenMember(ctx);
  const body = await readFields(ctx.request);
  if (!safeEqual(text(body.token), token)) throw new ApiError(401, "invalid_token", {}, "token");
  const client = await findClient(ctx.db, text(body.client), ctx.url, ctx.site.product);
  if (!client) throw new ApiError(401, "invalid_client", {}, "client");
  if (client.hotel.id !== member.hotel_id) throw new ApiError(403, "wrong_hotel", {}, "client");
  return ok({ client: client.clientId, member: { email: member.email, first_name: member.first_name, last_name: member.last_name } });
}

export async function pmsExchange(ctx: BackendContext): Promise<Response> {
  const { member } = await requireTokenMember(ctx);
  const body = await readFields(ctx.request);
  const hotelId = Number(body.hotel_id);
  if (!Number.isInteger(hotelId) || hotelId <= 0) throw new ApiError(400, "invalid_field", { field: "hotel_id" }, "hotel_id");
  if (hotelId !== member.hotel_id) throw new ApiError(403, "wrong_hotel", {}, "hotel_id");
  const hotel = await ctx.db
    .prepare("SELECT close_member_system FROM hotels WHERE id = ?")
    .bind(hotelId)
    .first<{ close_member_system: number }>();
  if (!hotel || hotel.close_member_system === 1) throw new ApiError(403, "member_system_closed", {}, "hotel_id");
  const { token, expiresIn } = await issuePmsToken(ctx.db, member, ctx.now);
  return ok({ access_token: token, token_type: "Bearer", expires_in: expiresIn, hotel_id: hotelId });
}
