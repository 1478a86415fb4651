/**
 * pdftotext for the Worker tests (issue 37): a test inside workerd cannot run a program, so this
 * server, started in Node before them, reads back the PDF bytes a test POSTs with poppler's
 * pdftotext — the tool the unit and browser tests read the confirmation with — and answers its text.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** POST a PDF's bytes here: the answer is pdftotext's text of it (UTF-8, layout lines kept). */
    pdfText: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "worker-pdf-text-"));
  let count = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const file = join(dir, `${++count}.pdf`);
      writeFileSync(file, Buffer.concat(chunks));
      execFile("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" }, (error, stdout, stderr) => {
        response.writeHead(error ? 500 : 200, { "content-type": "text/plain; charset=utf-8" });
        response.end(error ? `pdftotext failed: ${stderr || error.message}` : stdout);
      });
    });
  });
  const url = await new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
  project.provide("pdfText", url);
  return async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  };
}
