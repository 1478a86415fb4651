/** The member and the sign-in (spec §7): the profile, the authorization code, one-tap, the hotel token, sign-out. */
import * as v from "valibot";
import { AccessTokenSchema, MemberProfileSchema, OneTapSchema, PmsTokenSchema } from "../schemas";
import type { ClientClass } from "./core";

/** The calls of members and sign-in. */
export function withAccountCalls<TBase extends ClientClass>(Base: TBase) {
  return class AccountCalls extends Base {
    /** GET /api/member/profile: the member named by the token; 401 when the back end does not accept it. */
    memberProfile() {
      return this.call(MemberProfileSchema, "GET", "/api/member/profile", { query: this.hotel });
    }

    // Login (spec §7)

    /**
     * POST {account}/oauth/token: an authorization code (with its PKCE verifier) for a member token,
     * as RFC 6749 §4.1.3 asks (a form, client_secret_post as spec §7 sends it). Any OAuth server's
     * answer is read (§5.1, §5.2 errors as HotelApiError with the `error` as code), and the site
     * envelope of older account services too. Decision 050.
     */
    exchangeCode(input: { client_id: string; client_secret: string; redirect_uri: string; code: string; code_verifier: string }) {
      // The client authenticates with its secret; a signed-in browser's member token is not sent along.
      return this.withMemberToken(null).call(AccessTokenSchema, "POST", "{account}/oauth/token", {
        form: { grant_type: "authorization_code", ...input },
        oauth: true,
      });
    }

    /** POST {account}/api/v1/onetap (body client and token, Bearer): who a member token names. */
    oneTap(client: string, memberToken: string) {
      return this.withMemberToken(memberToken).call(OneTapSchema, "POST", "{account}/api/v1/onetap", {
        body: { client, token: memberToken },
      });
    }

    /** POST {pms}/oauth/token/exchange (hotel_id, Bearer): the member token for a token valid at this hotel only. */
    exchangeForHotel(hotelId: number, memberToken: string) {
      return this.withMemberToken(memberToken).call(PmsTokenSchema, "POST", "{pms}/oauth/token/exchange", { body: { hotel_id: hotelId } });
    }

    /** POST {account}/oauth/revoke (Bearer): ends the member token, its hotel tokens and its sign-in session. */
    revokeMemberToken(memberToken: string) {
      return this.withMemberToken(memberToken).call(v.object({ revoked: v.boolean() }), "POST", "{account}/oauth/revoke", { body: {} });
    }
  };
}
