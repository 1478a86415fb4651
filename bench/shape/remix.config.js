/**
 * The bench's same-shape floor (scripts/bench.mjs, decision 105): a Remix app whose one page renders
 * the element tree of Portico's booking results page with its loader data (app/generated/, written
 * by scripts/bench-shape.mjs), built with the same @remix-run packages, compiler settings and
 * Worker runtime as Portico (../../remix.config.js) and the bare page (../bare/).
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
