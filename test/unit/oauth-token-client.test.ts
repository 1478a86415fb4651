/**
 * The site's code exchange (HotelApi.exchangeCode) against an account service that is not ours: a
 * plain OAuth 2.0 token endpoint as RFC 6749 §4.1.3 and §5 describe it, standing in for whatever
 * `ACCOUNT_ORIGIN` names. The built-in service is exercised end to end in test/worker/account.test.ts.
 */
import { describe, expect, it } from "vitest";
import { HotelApi, HotelApiError } from "~/contract/client";

const ACCOUNT = "https://login.example.com/oauth2";
const INPUT = {
  client_id: "hotel.example",
  client_secret: "s3cret+/=",
  redirect_uri: "https://hotel.example/hxa/oauth/callback",
  code: "SplxlOBeZQQYbYS6WxSbIA",
  code_verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
};
/** An access token of the length a JWT-issuing server sends (longer than the built-in service's). */
const JWT = `eyJhbGciOiJSUzI1NiJ9.${"eyJzdWIiOiJtZWkifQ".repeat(50)}.${"c2lnbmF0dXJl".repeat(20)}`;

/** A token endpoint that reads the request as RFC 6749 §4.1.3 asks and answers `answer` with RFC 6749 headers. */
function oauthServer(answer: (form: URLSearchParams) => { status: number; body: unknown }) {
  const seen: { headers: Headers; body: string }[] = [];
  const transport = async (request: Request) => {
    seen.push({ headers: request.headers, body: await request.clone().text() });
    if (request.method !== "POST" || new URL(request.url).pathname !== "/oauth2/oauth/token")
      return new Response("not found", { status: 404 });
    if (request.headers.get("content-type") !== "application/x-www-form-urlencoded")
      return Response.json({ error: "invalid_request" }, { status: 400 });
    const { status, body } = answer(new URLSearchParams(await request.text()));
    return new Response(JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json;charset=UTF-8", "cache-control": "no-store", pragma: "no-cache" },
    });
  };
  // A signed-in browser's member token is on the client; it must not travel to the token endpoint.
  const api = new HotelApi({
    transport,
    origin: "https://api.hotel.example",
    accountBase: ACCOUNT,
    domain: "hotel.example",
    lang: "en-US",
    memberToken: "an-old-member-token-0123456789",
  });
  return { api, seen };
}

async function refusal(promise: Promise<unknown>): Promise<HotelApiError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(HotelApiError);
  return error as HotelApiError;
}

describe("the site's code exchange with any OAuth 2.0 account service", () => {
  it("sends a form (client_secret_post) and reads a bare RFC 6749 §5.1 answer: lowercase bearer, no expires_in, a JWT", async () => {
    const { api, seen } = oauthServer(() => ({ status: 200, body: { access_token: JWT, token_type: "bearer" } }));
    const token = await api.exchangeCode(INPUT);
    expect(token.access_token).toBe(JWT);
    const [request] = seen;
    expect(request?.headers.get("authorization")).toBeNull();
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({ grant_type: "authorization_code", ...INPUT });
  });

  it("reads RFC 6749 §5.2 refusals as errors carrying the `error` code the callback page names", async () => {
    for (const [status, error] of [
      [400, "invalid_grant"],
      [401, "invalid_client"],
      [400, "invalid_request"],
      [400, "unsupported_grant_type"],
    ] as const) {
      const { api } = oauthServer(() => ({ status, body: { error, error_description: "refused" } }));
      const refused = await refusal(api.exchangeCode(INPUT));
      expect(refused.code).toBe(error);
      expect(refused.status).toBe(status);
      expect(refused.isUnavailable).toBe(false);
    }
  });

  it("still reads the site envelope of an older account service", async () => {
    const { api } = oauthServer(() => ({
      status: 200,
      body: {
        success: true,
        msg: { code: "ok", message: "" },
        data: { access_token: "a".repeat(43), token_type: "Bearer", expires_in: 60 },
      },
    }));
    expect((await api.exchangeCode(INPUT)).access_token).toBe("a".repeat(43));
    const { api: refusing } = oauthServer(() => ({
      status: 400,
      body: { success: false, msg: { code: "invalid_grant", message: "used" }, data: null },
    }));
    expect((await refusal(refusing.exchangeCode(INPUT))).code).toBe("invalid_grant");
  });

  it("refuses a token it could not use: another token type, a token with spaces, or no token", async () => {
    for (const body of [
      { access_token: "a".repeat(43), token_type: "mac" },
      { access_token: "not a token at all", token_type: "bearer" },
      { token_type: "bearer" },
    ]) {
      const { api } = oauthServer(() => ({ status: 200, body }));
      expect((await refusal(api.exchangeCode(INPUT))).code, JSON.stringify(body)).toBe("bad_response");
    }
  });
});
