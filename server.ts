/** Worker entry (wrangler `main` is its build, build/index.js). See app/worker/worker.server.ts. */
import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
import * as build from "@remix-run/dev/server-build";
import { handleFetch } from "~/worker/worker.server";
import { handleScheduled } from "~/worker/scheduled.server";

const remix = createRequestHandler(build as unknown as ServerBuild, build.mode);

export default {
  fetch(request: Request, env: Record<string, unknown>, ctx: ExecutionContext): Promise<Response> {
    // The build's asset version keys the whole-page cache: a page stored by an earlier deploy names files it no longer has.
    return handleFetch(request, env, ctx, remix, build.assets.version);
  },
  scheduled(controller: ScheduledController, env: Record<string, unknown>, ctx: ExecutionContext): void {
    ctx.waitUntil(handleScheduled(controller, env));
  },
} satisfies ExportedHandler<Record<string, unknown>>;
