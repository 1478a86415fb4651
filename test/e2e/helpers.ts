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
