/**
 * The bench's yardstick (scripts/bench.mjs): a bare Remix page with a loader, built with the same
 * @remix-run packages, compiler settings and Worker runtime as Portico (../../remix.config.js).
 * @type {import('@remix-run/dev').AppConfig}
 */
export default {
  server: "./server.ts",
  serverBuildPath: "build/index.js",
  assetsBuildDirectory: "public/build",
  serverConditions: ["workerd", "worker", "browser"],
  serverDependenciesToBundle: "all",
  serverMainFields: ["browser", "module", "main"],
  serverMinify: true,
  serverModuleFormat: "esm",
  serverPlatform: "neutral",
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
