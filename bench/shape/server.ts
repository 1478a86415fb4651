/**
 * The same-shape floor's Worker entry: Remix and nothing else; SHAPE_LATENCY_MS and the DB binding
 * (an empty D1 database, for the floor with one D1 call) are handed to the page's loader.
 */
import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
import * as build from "@remix-run/dev/server-build";

const remix = createRequestHandler(build as unknown as ServerBuild, build.mode);

interface Env {
  SHAPE_LATENCY_MS?: string;
  DB?: D1Database;
}

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    return remix(request, { latencyMs: Number(env.SHAPE_LATENCY_MS ?? 0), db: env.DB });
  },
} satisfies ExportedHandler<Env>;
