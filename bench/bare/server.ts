/** The bare page's Worker entry: Remix and nothing else. */
import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
import * as build from "@remix-run/dev/server-build";

const remix = createRequestHandler(build as unknown as ServerBuild, build.mode);

export default {
  fetch(request: Request): Promise<Response> {
    return remix(request, {});
  },
} satisfies ExportedHandler;
