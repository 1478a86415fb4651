/**
 * What a page loads, gzipped: its HTML, each stylesheet, each script and module preload (and the
 * modules its inline module script imports), and its inline scripts (not JSON-LD). One measure for
 * `npm run bench` (Lighthouse's table) and `npm run bench:bytes` (the booking pages' budgets,
 * decision 161). `get(url)` resolves to `{ body: Buffer }`.
 */
import { gzipSync } from "node:zlib";

export async function bytesOf(get, base, path) {
  const page = await get(`${base}${path}`);
  const html = page.body.toString("utf8");
  const css = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((match) => match[1]);
  const js = [
    ...[...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1]),
    ...[...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((match) => match[1]),
    ...[...html.matchAll(/import\s*(?:[^"']*from\s*)?["']([^"']+\.js)["']/g)].map((match) => match[1]),
  ];
  const gz = async (urls) => {
    const files = [];
    for (const url of new Set(urls)) files.push({ url, bytes: gzipSync((await get(new URL(url, base).toString())).body).length });
    return files;
  };
  const inlineScripts = [...html.matchAll(/<script(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g)]
    .map((match) => match[1])
    .join("");
  const cssFiles = await gz(css);
  const jsFiles = await gz(js);
  const inline = inlineScripts ? gzipSync(inlineScripts).length : 0;
  const sum = (files) => files.reduce((total, file) => total + file.bytes, 0);
  return {
    html: gzipSync(page.body).length,
    css: sum(cssFiles),
    js: sum(jsFiles) + inline,
    inline,
    cssFiles,
    jsFiles,
    body: html,
  };
}
