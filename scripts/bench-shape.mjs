/**
 * npm run bench:shape — writes the bench's same-shape floor (bench/shape/, decision 105) from a page
 * of a running Portico: the page's own HTML, parsed here, becomes a TSX module of
 * React.createElement calls (the same elements, attributes, texts, forms, selects and options),
 * and the page's loader data (decoded from the single-fetch stream inlined in the HTML) becomes
 * the loaders' data of a three-route Remix app shaped like Portico's (root, ($lang), the page).
 * What Remix's <Scripts>/<ScrollRestoration> render is left out of the tree and rendered by those
 * components instead, so the floor does what Remix must do for this page, and nothing more.
 *
 *   npm run bench:shape -- http://taipei.localhost:8787 '/en-US/hxa/booking?start=…&end=…'
 *
 * scripts/bench.mjs calls generateShape() on each run before building bench/shape/; the generated
 * files (bench/shape/app/generated/) are not committed. Output is written only when it changed.
 * Also exported: parseHtml (a small HTML tokenizer, enough for what React renders) and
 * shapeSignature (elements and attributes of a document without Remix's scripts), which the bench
 * uses to check that the floor renders what the page renders.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { decode } from "turbo-stream";

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
const RAW_TEXT = new Set(["script", "style", "textarea", "title"]);
/** HTML attribute names as React writes them, back to the prop React takes. */
const PROP_NAMES = {
  class: "className",
  for: "htmlFor",
  tabindex: "tabIndex",
  crossorigin: "crossOrigin",
  "accept-charset": "acceptCharset",
  "http-equiv": "httpEquiv",
  readonly: "readOnly",
  novalidate: "noValidate",
  autofocus: "autoFocus",
  maxlength: "maxLength",
  minlength: "minLength",
  autocomplete: "autoComplete",
  enctype: "encType",
  colspan: "colSpan",
  rowspan: "rowSpan",
  srcset: "srcSet",
  datetime: "dateTime",
  spellcheck: "spellCheck",
  formnovalidate: "formNoValidate",
};
/** Props React writes as `name=""` when true. */
const BOOLEAN_PROPS = new Set([
  "required",
  "disabled",
  "hidden",
  "open",
  "checked",
  "selected",
  "multiple",
  "readOnly",
  "noValidate",
  "autoFocus",
  "async",
  "defer",
  "reversed",
  "formNoValidate",
  "playsInline",
  "itemScope",
  "allowFullScreen",
  "default",
  "inert",
]);

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
const decodeEntities = (text) =>
  text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (match, name) => {
    if (name[0] === "#")
      return String.fromCodePoint(name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10));
    return ENTITIES[name.toLowerCase()] ?? match;
  });

/**
 * A document as a tree: elements { tag, attrs: [name, value][], children } and texts (strings).
 * Comments (React's `<!-- -->` between adjacent texts, Suspense's `<!--$-->`) end a text and are
 * dropped; attribute names keep their case (React writes `charSet`, `hrefLang`).
 */
export function parseHtml(html) {
  const root = { tag: "#document", attrs: [], children: [] };
  const stack = [root];
  const top = () => stack[stack.length - 1];
  let at = 0;
  while (at < html.length) {
    const lt = html.indexOf("<", at);
    const textEnd = lt < 0 ? html.length : lt;
    if (textEnd > at) top().children.push(decodeEntities(html.slice(at, textEnd)));
    if (lt < 0) break;
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4);
      at = end < 0 ? html.length : end + 3;
      continue;
    }
    if (html.startsWith("<!", lt)) {
      at = html.indexOf(">", lt) + 1;
      continue;
    }
    if (html[lt + 1] === "/") {
      const end = html.indexOf(">", lt);
      const tag = html
        .slice(lt + 2, end)
        .trim()
        .toLowerCase();
      // Close up to the matching element (React's output is well formed; this only guards).
      const index = stack.map((node) => node.tag).lastIndexOf(tag);
      if (index > 0) stack.length = index;
      at = end + 1;
      continue;
    }
    const tagMatch = /^<([a-zA-Z][a-zA-Z0-9-]*)/.exec(html.slice(lt, lt + 40));
    if (!tagMatch) {
      top().children.push("<");
      at = lt + 1;
      continue;
    }
    const element = { tag: tagMatch[1].toLowerCase(), attrs: [], children: [] };
    let cursor = lt + tagMatch[0].length;
    const attribute = /\s*([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?|\s*(\/?>)/y;
    for (;;) {
      attribute.lastIndex = cursor;
      const match = attribute.exec(html);
      if (!match) throw new Error(`cannot parse the tag at ${lt}: ${html.slice(lt, lt + 80)}`);
      cursor = attribute.lastIndex;
      if (match[5]) break;
      element.attrs.push([match[1], decodeEntities(match[2] ?? match[3] ?? match[4] ?? "")]);
    }
    top().children.push(element);
    if (RAW_TEXT.has(element.tag)) {
      const close = html.toLowerCase().indexOf(`</${element.tag}`, cursor);
      const raw = html.slice(cursor, close);
      if (raw) element.children.push(element.tag === "script" || element.tag === "style" ? raw : decodeEntities(raw));
      element.raw = element.tag === "script" || element.tag === "style";
      at = html.indexOf(">", close) + 1;
      continue;
    }
    if (!VOID.has(element.tag) && !html.slice(cursor - 2, cursor).startsWith("/")) stack.push(element);
    at = cursor;
  }
  return root;
}

const attr = (element, name) => element.attrs.find(([key]) => key === name)?.[1];
const isElement = (node) => typeof node === "object";
function find(node, test) {
  if (!isElement(node)) return null;
  if (test(node)) return node;
  for (const child of node.children) {
    const found = find(child, test);
    if (found) return found;
  }
  return null;
}

/**
 * What Remix's <Scripts> and <ScrollRestoration> render (and Portico's deferred-hydration rewrite
 * of it): module preloads, the context and data scripts, the module script, and React's streamed
 * Suspense placeholders around the data scripts (their place depends on timing). Scripts that are the
 * page's own data (a JSON block with an id: the translations for hydration) stay.
 */
function isFrameworkNode(node) {
  if (!isElement(node)) return false;
  // React's streaming of a Suspense boundary that was not ready at the first flush (Remix's data scripts): a placeholder and the hidden content.
  if (node.tag === "template" && /^B:\d+$/.test(attr(node, "id") ?? "")) return true;
  if (node.tag === "div" && /^S:\d+$/.test(attr(node, "id") ?? "") && attr(node, "hidden") !== undefined) return true;
  if (node.tag === "link") return attr(node, "rel") === "modulepreload" || attr(node, "data-deferred-rel") !== undefined;
  if (node.tag !== "script") return false;
  const type = attr(node, "type");
  return !(type === "application/json" || type === "application/ld+json");
}

/** Elements and attributes of a document, without Remix's scripts: what the floor must render alike. */
export function shapeSignature(html) {
  const counts = new Map();
  const walk = (node) => {
    if (!isElement(node) || isFrameworkNode(node)) return;
    const key = `${node.tag}[${node.attrs
      .map(([name]) => name)
      .sort()
      .join(",")}]`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    node.children.forEach(walk);
  };
  walk(parseHtml(html));
  return counts;
}

/** The differences between two signatures, as lines (empty when alike). */
export function signatureDiff(expected, actual) {
  const lines = [];
  for (const key of new Set([...expected.keys(), ...actual.keys()])) {
    const a = expected.get(key) ?? 0;
    const b = actual.get(key) ?? 0;
    if (a !== b) lines.push(`${key}: page ${a}, floor ${b}`);
  }
  return lines;
}

function styleObject(text) {
  return Object.fromEntries(
    text
      .split(";")
      .map((rule) => rule.split(":"))
      .filter(([name, value]) => name?.trim() && value !== undefined)
      .map(([name, ...value]) => [
        name.trim().startsWith("--") ? name.trim() : name.trim().replace(/-([a-z])/g, (_, c) => c.toUpperCase()),
        value.join(":").trim(),
      ]),
  );
}

/** The props React takes to write this element's attributes again. */
function propsOf(element) {
  const props = {};
  for (const [name, value] of element.attrs) {
    const prop = PROP_NAMES[name] ?? name;
    if (prop === "style") props.style = styleObject(value);
    else if (BOOLEAN_PROPS.has(prop) && value === "") props[prop] = true;
    else props[prop] = value;
  }
  // Form state as React writes it from uncontrolled props.
  if (element.tag === "input") {
    for (const [from, to] of [
      ["value", "defaultValue"],
      ["checked", "defaultChecked"],
    ]) {
      if (!(from in props)) continue;
      props[to] = props[from];
      delete props[from];
    }
  }
  if (element.tag === "select") {
    const selected = [];
    const walk = (node) => {
      if (!isElement(node)) return;
      if (node.tag === "option" && attr(node, "selected") !== undefined)
        selected.push(attr(node, "value") ?? node.children.filter((c) => !isElement(c)).join(""));
      node.children.forEach(walk);
    };
    walk(element);
    if (selected.length) props.defaultValue = "multiple" in props ? selected : selected[0];
  }
  if (element.tag === "option") delete props.selected;
  if (element.tag === "textarea") props.defaultValue = element.children.join("");
  if (element.raw && element.children.length) {
    props.dangerouslySetInnerHTML = { __html: element.children.join("") };
    props.suppressHydrationWarning = true;
  }
  return props;
}

/** createElement calls for a node; `slots` replace given elements by an expression. */
function code(node, slots, indent = "") {
  if (!isElement(node)) return JSON.stringify(node);
  const slot = slots.get(node);
  if (slot) return slot;
  const props = propsOf(node);
  const children = node.tag === "textarea" || node.raw ? [] : node.children;
  const propsCode = Object.keys(props).length ? JSON.stringify(props) : "null";
  if (children.length === 0) return `h(${JSON.stringify(node.tag)}, ${propsCode})`;
  const inner = `${indent}  `;
  return `h(${JSON.stringify(node.tag)}, ${propsCode},\n${children.map((child) => inner + code(child, slots, inner)).join(",\n")})`;
}

/** A JavaScript literal of loader data: undefined kept (turbo-stream keeps it), Dates as Dates. */
function literal(value) {
  if (value === undefined) return "undefined";
  if (value === null || typeof value !== "object") return typeof value === "bigint" ? `${value}n` : JSON.stringify(value);
  if (value instanceof Date) return `new Date(${JSON.stringify(value.toISOString())})`;
  if (Array.isArray(value)) return `[${value.map(literal).join(",")}]`;
  return `{${Object.entries(value)
    .map(([key, item]) => `${JSON.stringify(key)}:${literal(item)}`)
    .join(",")}}`;
}

/** The loader data of every route of the page, in match order, from the single-fetch stream the HTML carries. */
export async function loaderDataOf(html) {
  const chunks = [...html.matchAll(/window\.__remixContext\.streamController\.enqueue\(("(?:[^"\\]|\\.)*")\);/g)].map((match) =>
    JSON.parse(match[1]),
  );
  if (chunks.length === 0) throw new Error("the page carries no single-fetch data (is it a page that hydrates?)");
  const stream = new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
  const decoded = await decode(stream);
  await decoded.done;
  return decoded.value.loaderData;
}

/** Node does not resolve *.localhost: connect to 127.0.0.1 and send the Host header. */
export function fetchText(url) {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: target.port || 80, path: target.pathname + target.search, headers: { host: target.host } },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString("utf8") }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** The generated module's source: Head, Body (the layout's place as a slot), Layout (the page's place as a slot), Page. */
export function treeModule(html, source) {
  const documentNode = parseHtml(html);
  const htmlNode = find(documentNode, (node) => node.tag === "html");
  const head = find(htmlNode, (node) => node.tag === "head");
  const body = find(htmlNode, (node) => node.tag === "body");
  const main = find(body, (node) => node.tag === "main");
  if (!head || !body || !main) throw new Error("the page has no head, body or main");
  const layout = body.children.find((child) => find(child, (node) => node === main));
  // The body without Remix's scripts: they are rendered by <ScrollRestoration/> and <Scripts/> at the first one's place.
  const firstFramework = body.children.findIndex(isFrameworkNode);
  const bodyChildren = body.children.filter((child, index) => index === firstFramework || !isFrameworkNode(child));
  const slots = new Map([[layout, "outlet"], ...(firstFramework >= 0 ? [[body.children[firstFramework], "scripts"]] : [])]);
  const fragment = (nodes, map) =>
    nodes.length ? `h(Fragment, null,\n${nodes.map((node) => `    ${code(node, map, "    ")}`).join(",\n")})` : "null";
  const lines = [
    `// Generated by scripts/bench-shape.mjs from ${source}: do not edit (npm run bench regenerates it).`,
    "/* eslint-disable */",
    'import { createElement as h, Fragment, type ReactNode } from "react";',
    "",
    `export const htmlAttributes = ${JSON.stringify(propsOf(htmlNode))};`,
    `export const bodyAttributes = ${JSON.stringify(propsOf(body))};`,
    "",
    "export function Head() {",
    `  return ${fragment(head.children, new Map())};`,
    "}",
    "",
    "export function Body({ outlet, scripts }: { outlet: ReactNode; scripts: ReactNode }) {",
    `  return ${fragment(bodyChildren, slots)};`,
    "}",
    "",
    "export function Layout({ outlet }: { outlet: ReactNode }) {",
    `  return ${layout === main ? "outlet" : code(layout, new Map([[main, "outlet"]]), "  ")};`,
    "}",
    "",
    "export function Page() {",
    `  return ${code(main, new Map(), "  ")};`,
    "}",
    "",
  ];
  return lines.join("\n");
}

/** The data module: each route's loader data, root first, the page last. */
export function dataModule(loaderData, source) {
  const ids = Object.keys(loaderData);
  const [rootId, ...rest] = ids;
  const pageId = rest.pop();
  const layout = rest.length === 1 ? loaderData[rest[0]] : Object.fromEntries(rest.map((id) => [id, loaderData[id]]));
  return [
    `// Generated by scripts/bench-shape.mjs from ${source} (routes ${ids.join(", ")}): do not edit.`,
    "/* eslint-disable */",
    `export const rootData = ${literal(loaderData[rootId])};`,
    `export const layoutData = ${literal(layout)};`,
    `export const pageData = ${literal(loaderData[pageId])};`,
    "",
  ].join("\n");
}

function writeIfChanged(file, text) {
  if (existsSync(file) && readFileSync(file, "utf8") === text) return false;
  writeFileSync(file, text);
  return true;
}

/**
 * Fetches `path` from the Portico at `origin` and writes bench/shape/app/generated/{page.tsx,data.ts}.
 * Resolves to { html, changed, bytes, elements }: the page's HTML (for the bench's check) and whether a file changed.
 */
export async function generateShape({ origin, path, outDir = "bench/shape/app/generated" }) {
  const page = await fetchText(`${origin}${path}`);
  if (page.status !== 200) throw new Error(`${path} answered ${page.status}`);
  const source = path.replace(/\d{4}-\d{2}-\d{2}/g, "YYYY-MM-DD");
  mkdirSync(outDir, { recursive: true });
  const changedTree = writeIfChanged(join(outDir, "page.tsx"), treeModule(page.body, source));
  const changedData = writeIfChanged(join(outDir, "data.ts"), dataModule(await loaderDataOf(page.body), source));
  const elements = [...shapeSignature(page.body).values()].reduce((sum, count) => sum + count, 0);
  return { html: page.body, changed: changedTree || changedData, bytes: Buffer.byteLength(page.body), elements };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [origin, path] = process.argv.slice(2);
  if (!origin || !path) {
    console.error("usage: npm run bench:shape -- <origin of a running Portico> <path of a page that hydrates>");
    process.exit(2);
  }
  const result = await generateShape({ origin, path });
  console.log(
    `${result.changed ? "wrote" : "unchanged:"} bench/shape/app/generated/ from ${path}: ${result.elements} elements, ${result.bytes} bytes of HTML`,
  );
}
