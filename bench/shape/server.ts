/** The same-shape floor's Worker entry: Remix and nothing else; SHAPE_LATENCY_MS is handed to the page's loader. */
import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
import * as build from "@remix-run/dev/server-build";

const remix = createRequestHandler(build as unknown as ServerBuild, build.mode);

export default {
  fetch(request: Request, env: { SHAPE_LATENCY_MS?: string }): Promise<Response> {
    return remix(request, { latencyMs: Number(env.SHAPE_LATENCY_MS ?? 0) });
  },
} satisfies ExportedHandler<{ SHAPE_LATENCY_MS?: string }>;
