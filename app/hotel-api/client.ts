/**
 * HotelApi: the one typed client of the hotel API contract (spec §7). Routes get it from the load
 * context. By default it dispatches in-process to the built-in back end (no network hop); with
 * HOTEL_API_ORIGIN set it talks to an existing back end over HTTP. Every answer is validated.
 */
import * as v from "valibot";
import type { Language } from "~/i18n/languages";
import { FailureSchema, HotelInfoSchema, envelope } from "./schemas";

/** Sends one request to the back end and returns its response. */
export type Transport = (request: Request) => Promise<Response>;

/** The back end answered `success: false`, or answered something that breaks the contract. */
export class HotelApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "HotelApiError";
  }

  get isNotFound(): boolean {
    return this.status === 404;
  }
}

export interface HotelApiOptions {
  transport: Transport;
  /** Origin used to build request URLs (the back end's, or the site's own for in-process calls). */
  origin: string;
  domain: string;
  lang: Language;
  memberToken?: string | null;
}

type Query = Record<string, string | number | boolean | readonly (string | number)[] | undefined | null>;

export class HotelApi {
  constructor(private readonly options: HotelApiOptions) {}

  get domain(): string {
    return this.options.domain;
  }

  get lang(): Language {
    return this.options.lang;
  }

  /** A client for the same hotel in another language. */
  withLanguage(lang: Language): HotelApi {
    return new HotelApi({ ...this.options, lang });
  }

  /** A client that sends the member's token (mem_token). */
  withMemberToken(memberToken: string | null): HotelApi {
    return new HotelApi({ ...this.options, memberToken });
  }

  protected async call<TSchema extends v.GenericSchema>(
    schema: TSchema,
    method: "GET" | "POST",
    path: string,
    { query = {}, body, headers = {} }: { query?: Query; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<v.InferOutput<TSchema>> {
    const url = new URL(path, this.options.origin);
    url.searchParams.set("lang", this.options.lang);
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
      else url.searchParams.set(key, String(value));
    }
    const requestHeaders = new Headers({ accept: "application/json", ...headers });
    if (this.options.memberToken) requestHeaders.set("authorization", `Bearer ${this.options.memberToken}`);
    let requestBody: string | undefined;
    if (body !== undefined) {
      requestHeaders.set("content-type", "application/json");
      requestBody = JSON.stringify(body);
    }
    const response = await this.options.transport(new Request(url, { method, headers: requestHeaders, body: requestBody }));
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      throw new HotelApiError(response.status || 502, "bad_response", "The hotel back end did not answer with JSON");
    }
    const failure = v.safeParse(FailureSchema, json);
    if (failure.success) {
      const msg = failure.output.msg;
      throw new HotelApiError(
        response.ok ? 400 : response.status,
        String(msg?.code ?? "error"),
        msg?.extrainfo?.message || msg?.message || "",
        msg?.extrainfo?.field,
      );
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
    return parsed.output.data as v.InferOutput<TSchema>;
  }

  /** GET /api/hotel/info */
  hotelInfo() {
    return this.call(HotelInfoSchema, "GET", "/api/hotel/info", { query: { domain: this.options.domain } });
  }
}
