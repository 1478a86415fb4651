import * as v from "valibot";

/** The Worker's bindings and variables, checked once per request before anything uses them. */
const Origin = v.union([v.literal(""), v.pipe(v.string(), v.url(), v.regex(/^https?:\/\/[^/]+$/, "must be an origin without a path"))]);
const BooleanFlag = v.pipe(
  v.optional(v.picklist(["true", "false", "1", "0", ""]), "false"),
  v.transform((value) => value === "true" || value === "1"),
);

const EnvSchema = v.object({
  DB: v.custom<D1Database>((value) => typeof value === "object" && value !== null && "prepare" in value, "DB must be a D1 binding"),
  DEFAULT_HOTEL_DOMAIN: v.optional(v.string(), ""),
  PRODUCT: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,30}$/, "PRODUCT must be a path segment")), "hxa"),
  FEATURE_GTM: BooleanFlag,
  FEATURE_REPAY: BooleanFlag,
  FEATURE_PRICE_CHECK_V2: v.pipe(
    v.optional(v.picklist(["true", "false", "1", "0", ""]), "true"),
    v.transform((value) => value !== "false" && value !== "0"),
  ),
  GTM_ID: v.optional(v.string(), ""),
  HOTEL_API_ORIGIN: v.optional(Origin, ""),
  ACCOUNT_ORIGIN: v.optional(Origin, ""),
  PMS_ORIGIN: v.optional(Origin, ""),
  MASTER_ORIGIN: v.optional(Origin, ""),
  /**
   * The site's OAuth client at an external account service (ACCOUNT_ORIGIN). Unset, the client is
   * the hotel's domain with a secret derived from SESSION_SECRET, as the built-in service expects
   * (docs/decisions/035). The secret is a Worker secret, never a [vars] value.
   */
  ACCOUNT_CLIENT_ID: v.optional(v.string(), ""),
  ACCOUNT_CLIENT_SECRET: v.optional(v.string(), ""),
  /**
   * How long a call to an external back end (HOTEL_API_ORIGIN, MASTER_ORIGIN) may take, in
   * milliseconds, before the guest is told to try again (docs/decisions/024). Default 8000.
   */
  HOTEL_API_TIMEOUT_MS: v.pipe(
    v.optional(v.union([v.string(), v.number()]), "8000"),
    v.transform(Number),
    v.integer("HOTEL_API_TIMEOUT_MS must be a whole number of milliseconds"),
    v.minValue(1, "HOTEL_API_TIMEOUT_MS must be at least 1"),
  ),
  /**
   * A bench knob, never set in production: every call of the site to its back end waits this many
   * milliseconds first, to stand for a far-away back end (`npm run bench`). Default 0: no wait.
   */
  BENCH_BACKEND_LATENCY_MS: v.pipe(
    v.optional(v.union([v.string(), v.number()]), "0"),
    v.transform((value) => Number(value || 0)),
    v.integer("BENCH_BACKEND_LATENCY_MS must be a whole number of milliseconds"),
    v.minValue(0, "BENCH_BACKEND_LATENCY_MS must not be negative"),
  ),
  SESSION_SECRET: v.pipe(v.string("SESSION_SECRET is required"), v.minLength(32, "SESSION_SECRET must be at least 32 characters")),
  /** Static assets (public/): the PDF's fonts are read from there. */
  ASSETS: v.optional(
    v.custom<Fetcher>((value) => typeof value === "object" && value !== null && "fetch" in value, "ASSETS must be a Fetcher"),
  ),
  /**
   * How email leaves (docs/decisions/041): "outbox" keeps it in D1 only (development, tests);
   * "cloudflare" sends through the SEND_EMAIL binding; "resend" or "postmark" over HTTPS with MAIL_API_KEY.
   */
  MAIL_TRANSPORT: v.optional(
    v.picklist(["outbox", "cloudflare", "resend", "postmark"], "MAIL_TRANSPORT must be outbox, cloudflare, resend or postmark"),
    "outbox",
  ),
  /** The sender address, e.g. "Portico <bookings@example.com>"; required by the sending transports. */
  MAIL_FROM: v.optional(v.string(), ""),
  /** Resend API key or Postmark server token: a secret (`wrangler secret put MAIL_API_KEY`). */
  MAIL_API_KEY: v.optional(v.string(), ""),
  SEND_EMAIL: v.optional(
    v.custom<SendEmail>(
      (value) => typeof value === "object" && value !== null && "send" in value,
      "SEND_EMAIL must be a send_email binding",
    ),
  ),
  /** The development page that lists the outbox (/dev/outbox). Never set in production. */
  MAIL_OUTBOX_PAGE: BooleanFlag,
  /**
   * The built-in test gateway, which takes no money, on hosts other than this machine's: only for a
   * staging site, whose every page and email then says "test mode". Never set in production (decision 047).
   */
  ALLOW_TEST_GATEWAY: BooleanFlag,
});

/**
 * Signing secrets that are public: the one wrangler.toml used to carry and the placeholder of
 * .dev.vars.example. A Worker holding one of them serves only local hosts (docs/decisions/017).
 */
export const DEVELOPMENT_SECRETS: ReadonlySet<string> = new Set([
  "local-development-secret-change-me-0123456789",
  "development-only-secret-never-deploy-0123456789",
]);

export type AppEnv = v.InferOutput<typeof EnvSchema>;

export class EnvError extends Error {}

const parsed = new WeakMap<object, AppEnv>();

export function parseEnv(env: Record<string, unknown>): AppEnv {
  const cached = parsed.get(env);
  if (cached) return cached;
  const result = v.safeParse(EnvSchema, env);
  if (!result.success) {
    throw new EnvError(
      `Invalid Worker configuration: ${result.issues.map((issue) => `${v.getDotPath(issue) ?? ""} ${issue.message}`).join("; ")}`,
    );
  }
  parsed.set(env, result.output);
  return result.output;
}
