/**
 * Hotel back ends that fail, as real HTTP servers on this machine (run in Node before the Worker
 * tests): the Worker reaches them through its real fetch path, as it would a remote back end.
 * - closing: accepts each connection and closes it at once (the Worker reads "Network connection lost");
 * - garbage: answers every call 200 with an HTML page instead of the contract's JSON;
 * - silent: accepts each request and never answers (only the Worker's timeout ends the call);
 * - refusing: answers every call with a well-formed failure the site does not expect (HTTP 400).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

export interface BrokenBackends {
  closing: string;
  garbage: string;
  silent: string;
  refusing: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    brokenBackends: BrokenBackends;
  }
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

export default async function setup(project: TestProject) {
  const closing = createServer();
  closing.on("connection", (socket) => socket.destroy());
  const garbage = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end("<html><body><h1>502 Bad Gateway</h1>nginx</body></html>");
  });
  const silent = createServer(() => undefined);
  const refusing = createServer((_request, response) => {
    response.writeHead(400, { "content-type": "application/json" });
    response.end(JSON.stringify({ success: false, msg: { code: "unexpected_refusal", message: "Refused" }, data: null }));
  });
  const servers = [closing, garbage, silent, refusing];
  project.provide("brokenBackends", {
    closing: await listen(closing),
    garbage: await listen(garbage),
    silent: await listen(silent),
    refusing: await listen(refusing),
  });
  return async () => {
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  };
}
