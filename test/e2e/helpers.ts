/** The demo hotels as a browser reaches them: <name>.localhost resolves to this machine. */
export const PORT = Number(process.env.PORT ?? 8788);

export function hotelUrl(name: string | null, path = "/"): string {
  return `http://${name ? `${name}.` : ""}localhost:${PORT}${path}`;
}

/** GET from the Node side (which does not resolve *.localhost): connect to 127.0.0.1 and send the Host. */
export async function fetchText(
  name: string | null,
  path: string,
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  const { request } = await import("node:http");
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: PORT, path, headers: { host: `${name ? `${name}.` : ""}localhost:${PORT}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** A JSON call to the Worker's built-in back end from the Node side, as another client would make it. */
export async function apiCall<T = unknown>(method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const { request } = await import("node:http");
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: PORT,
        path,
        method,
        headers: { host: `localhost:${PORT}`, ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString("utf8")) as T }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}
