import "@remix-run/server-runtime";
// Single fetch is on (remix.config.js): loaders and actions return plain objects or `data()`, and
// useLoaderData/useActionData infer their types the single-fetch way.
declare module "@remix-run/server-runtime" {
  interface Future {
    v3_singleFetch: true;
  }
}
