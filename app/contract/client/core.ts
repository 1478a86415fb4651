/**
 * What every call of the hotel API client shares (spec §7): the transport, the options, the
 * request's URL, query and body, and the reading of the answer (envelope, failures, OAuth answers,
 * kept content answers, answers handed over in process), with the error every call throws. The
 * calls themselves live in one file per capability beside this one; `~/contract/client` composes
 * them into `HotelApi` (decision 142).
 */
import * as v from "valibot";
import type { Language } from "~/i18n/languages";
import { answerText, answerValue } from "~/contract/answers";
import { CONTENT_READS, KeptAnswers } from "~/contract/content-reads";
import { FailureSchema, OAuthErrorSchema, envelope } from "../schemas";

/** Sends one request to the back end and returns its response. */
export type Transport = (request: Request) => Promise<Response>;

/** The back end answered `success: false`, or answered something that breaks the contract. */
export class HotelApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    /** The `data` a failure carried, unvalidated (most failures carry none). */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "HotelApiError";
  }

  get isNotFound(): boolean {
    return this.status === 404;
  }

  /**
   * The back end could not answer: it is down, slower than the timeout, answered garbage or failed
   * on its side (a 5xx). The guest can only try again later.
   */
  get isUnavailable(): boolean {
    return this.status >= 500;
  }
}

export interface HotelApiOptions {
  transport: Transport;
  /** Origin used to build request URLs (the back end's, or the site's own for in-process calls). */
  origin: string;
  /** The spec's {master} base URL; by default `${origin}/master`, where the built-in back end serves it. */
  masterBase?: string;
  /** The spec's {account} base URL (sign-in); by default `${origin}/account`. */
  accountBase?: string;
  /** The spec's {pms} base URL (the hotel-scoped token); by default `${origin}/pms`. */
  pmsBase?: string;
  domain: string;
  lang: Language;
  memberToken?: string | null;
  /** Told of every call the back end could not answer (HotelApiError.isUnavailable), before it is thrown. */
  onUnavailable?: (error: HotelApiError, path: string) => void;
}

/** Content answers this instance read, as validated (decision 130). */
const keptAnswers = new KeptAnswers();

type Query = Record<string, string | number | boolean | readonly (string | number)[] | undefined | null>;

export class ClientCore {
  constructor(protected readonly options: HotelApiOptions) {}

  get domain(): string {
    return this.options.domain;
  }

  get lang(): Language {
    return this.options.lang;
  }

  /** A client for the same hotel in another language. */
  withLanguage(lang: Language): this {
    return this.with({ lang });
  }

  /** A client that sends the member's token (mem_token). */
  withMemberToken(memberToken: string | null): this {
    return this.with({ memberToken });
  }

  /** The same client (the facade, with every capability's calls) on changed options. */
  private with(change: Partial<HotelApiOptions>): this {
    return new (this.constructor as new (options: HotelApiOptions) => this)({ ...this.options, ...change });
  }

  /**
   * The URL of a contract path: `/api/…` on the back end's origin, `{master}/…`, `{account}/…` and
   * `{pms}/…` on the spec's bases of those names.
   */
  url(path: string): URL {
    const service = /^\{(master|account|pms)\}\//.exec(path)?.[1] as "master" | "account" | "pms" | undefined;
    if (!service) return new URL(path, this.options.origin);
    const base = this.options[`${service}Base`] ?? `${this.options.origin}/${service}`;
    return new URL(`${base.replace(/\/+$/, "")}${path.slice(service.length + 2)}`);
  }

  protected async call<TSchema extends v.GenericSchema>(
    schema: TSchema,
    method: "GET" | "POST",
    path: string,
    {
      query = {},
      body,
      headers = {},
      form,
      oauth = false,
    }: {
      query?: Query;
      body?: unknown;
      headers?: Record<string, string>;
      /** A form body (application/x-www-form-urlencoded) instead of JSON. */
      form?: Record<string, string>;
      /** An OAuth endpoint: RFC 6749 §5 answers (a bare token or `{ error }`) are read as well as the envelope. */
      oauth?: boolean;
    } = {},
  ): Promise<v.InferOutput<TSchema>> {
    const url = this.url(path);
    url.searchParams.set("lang", this.options.lang);
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
      else url.searchParams.set(key, String(value));
    }
    const requestHeaders = new Headers({ accept: "application/json", ...headers });
    if (this.options.memberToken) requestHeaders.set("authorization", `Bearer ${this.options.memberToken}`);
    let requestBody: string | undefined;
    if (form !== undefined) {
      requestHeaders.set("content-type", "application/x-www-form-urlencoded");
      requestBody = new URLSearchParams(form).toString();
    } else if (body !== undefined) {
      requestHeaders.set("content-type", "application/json");
      requestBody = JSON.stringify(body);
    }
    try {
      return await this.send(schema, path, new Request(url, { method, headers: requestHeaders, body: requestBody }), oauth);
    } catch (error) {
      if (error instanceof HotelApiError && error.isUnavailable) this.options.onUnavailable?.(error, path);
      throw error;
    }
  }

  private async send<TSchema extends v.GenericSchema>(
    schema: TSchema,
    path: string,
    request: Request,
    oauth = false,
  ): Promise<v.InferOutput<TSchema>> {
    let response: Response;
    try {
      response = await this.options.transport(request);
    } catch (error) {
      // No answer at all: connection refused or lost, DNS, or the transport's timeout.
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      throw new HotelApiError(
        timedOut ? 504 : 503,
        timedOut ? "backend_timeout" : "backend_unreachable",
        `The hotel back end did not answer ${path}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
      );
    }
    // A content read's answer: what the client read from this very text before, if it kept it.
    const keeps = request.method === "GET" && response.status === 200 && CONTENT_READS.has(path);
    let text = "";
    let json: unknown;
    // The built-in back end in process hands its answer over as a value, not as text (decision 131).
    const handedOver = keeps ? undefined : answerValue(response);
    try {
      if (handedOver) json = handedOver.value;
      else if (keeps) {
        text = await answerText(response);
        const kept = keptAnswers.get(path, text);
        if (kept) return kept.value as v.InferOutput<TSchema>;
        json = JSON.parse(text);
      } else json = await response.json();
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      if (timedOut) throw new HotelApiError(504, "backend_timeout", `The hotel back end did not finish answering ${path} in time`);
      // Garbage (an HTML error page, a proxy's text) is never the contract, whatever its status.
      throw new HotelApiError(
        response.status >= 500 ? response.status : 502,
        "bad_response",
        `The hotel back end did not answer ${path} with JSON (HTTP ${response.status})`,
      );
    }
    const failure = v.safeParse(FailureSchema, json);
    if (failure.success) {
      const msg = failure.output.msg;
      throw new HotelApiError(
        response.ok ? 400 : response.status,
        String(msg?.code ?? "error"),
        msg?.extrainfo?.message || msg?.message || "",
        msg?.extrainfo?.field,
        failure.output.data ?? undefined,
      );
    }
    if (oauth) {
      // RFC 6749 §5.2: `{ error, error_description }`, usually with 400 or 401.
      const refused = v.safeParse(OAuthErrorSchema, json);
      if (refused.success) {
        throw new HotelApiError(response.ok ? 400 : response.status, refused.output.error, refused.output.error_description ?? "");
      }
      // RFC 6749 §5.1: the token answer itself, from any OAuth server (the old envelope is read below).
      const bare = response.ok ? v.safeParse(schema, json) : null;
      if (bare?.success) return bare.output as v.InferOutput<TSchema>;
    }
    const parsed = v.safeParse(envelope(schema), json);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      throw new HotelApiError(
        502,
        "bad_response",
        `The hotel back end answered ${path} with an unexpected shape at ${issue ? v.getDotPath(issue) : "?"}`,
      );
    }
    const data = parsed.output.data as v.InferOutput<TSchema>;
    return keeps ? keptAnswers.set(path, text, data) : data;
  }

  protected get hotel() {
    return { domain: this.options.domain };
  }
}

/** A class that a capability's calls extend (the TypeScript mixin pattern, decision 142). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- TypeScript requires `any[]` of a mixin's base constructor
export type ClientClass = new (...args: any[]) => ClientCore;
