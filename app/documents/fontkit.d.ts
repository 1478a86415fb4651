/** Upstream fontkit 2 ships no types; the adapter (fontkit-adapter.ts) types what it uses. */
declare module "fontkit" {
  export function create(buffer: Uint8Array, postscriptName?: string): unknown;
}
