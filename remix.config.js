/**
 * Remix classic compiler, building one Worker (see docs/decisions/001-classic-compiler.md).
 * `server.ts` is the Worker entry: it serves the built-in hotel back end and hands everything
 * else to Remix.
 * @type {import('@remix-run/dev').AppConfig}
 */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.*"],
  server: "./server.ts",
  serverBuildPath: "build/index.js",
  serverConditions: ["workerd", "worker", "browser"],
  serverDependenciesToBundle: "all",
  serverMainFields: ["browser", "module", "main"],
  serverMinify: process.env.SERVER_MINIFY !== "0",
  serverModuleFormat: "esm",
  serverPlatform: "neutral",
  watchPaths: ["./locales/**/*.json"],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: false,
    v3_singleFetch: true,
  },
};
