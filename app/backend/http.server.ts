import * as v from "valibot";
import { isLanguage, type Language, DEFAULT_LANGUAGE } from "~/i18n/languages";
import { apiMessage, type ApiMessageCode } from "~/backend/messages";
import { jsonAnswer } from "~/contract/answers";

/** The envelope of every answer (spec §8): `{ success, msg, data }`. */
export interface ApiMsg {
  code: string;
  message: string;
  extrainfo?: { message: string; field?: string };
}

/** An error the API answers with a 4xx (or 5xx when it is ours) and a message in the request's language. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiMessageCode,
    readonly params: Record<string, string | number> = {},
    readonly field?: string,
  ) {
    super(code);
  }
}

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

/** A successful answer; called in process, the client takes its value without its text (decision 131). */
export function ok(data: unknown, status = 200): Response {
  return jsonAnswer({ success: true, msg: { code: "ok", message: "" }, data }, { status, headers: JSON_HEADERS });
}

export function fail(error: ApiError, lang: Language, data: unknown = null): Response {
  const message = apiMessage(error.code, lang, error.params);
  const msg: ApiMsg = {
    code: error.code,
    message,
    extrainfo: error.field ? { message, field: error.field } : { message },
  };
  return new Response(JSON.stringify({ success: false, msg, data }), { status: error.status, headers: JSON_HEADERS });
}

export function requestLanguage(url: URL): Language {
  const lang = url.searchParams.get("lang");
  return isLanguage(lang) ? lang : DEFAULT_LANGUAGE;
}

/** Largest request body the API reads; anything bigger is refused before it is parsed. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Reads a JSON body, refusing bodies that are too large or not JSON. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw new ApiError(413, "body_too_large", { max: MAX_BODY_BYTES });
  const buffer = await request.arrayBuffer();
  if (buffer.byteLength > MAX_BODY_BYTES) throw new ApiError(413, "body_too_large", { max: MAX_BODY_BYTES });
  if (buffer.byteLength === 0) throw new ApiError(400, "body_not_json");
  try {
    return JSON.parse(new TextDecoder().decode(buffer));
  } catch {
    throw new ApiError(400, "body_not_json");
  }
}

/** Parses input with a schema; the first issue becomes a 400 naming the field. */
export function parseInput<TSchema extends v.GenericSchema>(schema: TSchema, input: unknown): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const field = issue ? (v.getDotPath(issue) ?? undefined) : undefined;
  throw new ApiError(400, "invalid_field", { field: field ?? "body" }, field);
}

/** Query parameters as an object; repeated keys (room_class_ids) become arrays where asked. */
export function queryObject(url: URL, repeated: readonly string[] = []): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const bare = key.endsWith("[]") ? key.slice(0, -2) : key;
    if (repeated.includes(bare)) {
      out[bare] = [...((out[bare] as string[] | undefined) ?? []), ...url.searchParams.getAll(key)];
    } else {
      out[key] = url.searchParams.get(key) ?? "";
    }
  }
  return out;
}
