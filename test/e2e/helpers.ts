/** The demo hotels as a browser reaches them: <name>.localhost resolves to this machine. */
export const PORT = Number(process.env.PORT ?? 8788);

export function hotelUrl(name: string | null, path = "/"): string {
  return `http://${name ? `${name}.` : ""}localhost:${PORT}${path}`;
}
