/**
 * Copies the confirmation PDF's fonts (Noto Sans TC, SC and KR) from their npm
 * packages into public/fonts/, which git ignores: the Worker fetches them from its static assets
 * (docs/decisions/042). Run by `npm run build`, so `npm start` and `npm test` have them too.
 */
import { copyFileSync, existsSync, mkdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const fonts = [
  ["@expo-google-fonts/noto-sans-tc", "NotoSansTC_400Regular.ttf", "NotoSansTC-Regular.ttf", true],
  ["@expo-google-fonts/noto-sans-kr", "NotoSansKR_400Regular.ttf", "NotoSansKR-Regular.ttf", true],
  ["@expo-google-fonts/noto-sans-sc", "NotoSansSC_400Regular.ttf", "NotoSansSC-Regular.ttf", true],
];
const target = "public/fonts";
mkdirSync(target, { recursive: true });
for (const [pkg, file, name, required] of fonts) {
  let source;
  try {
    source = join(dirname(require.resolve(`${pkg}/package.json`)), "400Regular", file);
  } catch {
    if (required) throw new Error(`${pkg} is not installed (npm install)`);
    continue;
  }
  const destination = join(target, name);
  if (existsSync(destination) && statSync(destination).size === statSync(source).size) continue;
  copyFileSync(source, destination);
}
