/**
 * The `entities` package's HTML decoder, for the Worker, Node and the tests. A `.server` module, so
 * the client build gets an empty one in its place: in a browser, `./entities` lets the page's own
 * HTML parser read the references, and the package's tables (about 12 KB gzipped) stay off the
 * booking pages (decision 143).
 */
export { decodeHTML } from "entities/decode";
