import { SELF, env } from "cloudflare:test";
import { validateHotelFile, type HotelFile } from "~/backend/hotel-file";
import { hotelFileToSql } from "~/backend/hotel-sql";
import { todayIn } from "~/booking/dates";
import minimal from "../fixtures/minimal-hotel.json";

/** A copy of the minimal fixture hotel under another domain, so test files never share a hotel. */
export function fixtureHotel(domain: string, change: (file: typeof minimal) => void = () => undefined): unknown {
  const file = structuredClone(minimal);
  file.hotel.domain = domain;
  change(file);
  return file;
}

/** Loads a hotel file into the test D1 through the same SQL the import command runs. */
export async function loadHotel(input: unknown, loadDay = todayIn("Asia/Taipei")): Promise<HotelFile> {
  const result = validateHotelFile(input);
  if (!result.success) throw new Error(`fixture does not validate: ${result.errors.join("; ")}`);
  const statements = hotelFileToSql(result.file, { loadDay });
  await env.DB.batch(statements.map((statement) => env.DB.prepare(statement)));
  return result.file;
}

/** A request to the Worker as a browser at `host` would send it. */
export function fetchAs(host: string, path: string, init?: RequestInit): Promise<Response> {
  return SELF.fetch(`http://${host}${path}`, init);
}

export interface Envelope<T = unknown> {
  success: boolean;
  msg: { code: string; message: string; extrainfo?: { message: string; field?: string } };
  data: T;
}

export async function apiJson<T = unknown>(host: string, path: string, init?: RequestInit) {
  const response = await fetchAs(host, path, init);
  return { status: response.status, body: (await response.json()) as Envelope<T> };
}
