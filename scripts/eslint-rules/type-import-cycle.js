/**
 * ESLint rule: no import cycle that passes through a type-only import.
 *
 * import/no-cycle skips `import type` and `export type … from` by design (they vanish at build
 * time), so a cycle such as router.server.ts → orders.server.ts ⇢ (types) router.server.ts passes
 * it. Such a cycle still ties the modules together: this rule reports it. Cycles made only of value
 * imports are left to import/no-cycle, so each cycle is reported once. Modules are resolved the
 * way TypeScript resolves them (tsconfig paths, so `~/` works); only files under `root` count.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** Per tsconfig: compiler options. */
const optionsCache = new Map();
/** Per file: { mtimeMs, edges: [{ target, typeOnly }] } read from disk. */
const edgeCache = new Map();

function compilerOptions(tsconfig) {
  let options = optionsCache.get(tsconfig);
  if (!options) {
    const read = ts.readConfigFile(tsconfig, ts.sys.readFile);
    options = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(tsconfig)).options;
    optionsCache.set(tsconfig, options);
  }
  return options;
}

function resolve(specifier, fromFile, options, root) {
  const resolved = ts.resolveModuleName(specifier, fromFile, options, ts.sys).resolvedModule?.resolvedFileName;
  if (!resolved || resolved.endsWith(".d.ts") || !/\.[cm]?[jt]sx?$/.test(resolved)) return null;
  const file = path.resolve(resolved);
  return file.startsWith(root + path.sep) ? file : null;
}

const allTypeOnly = (elements) => elements.length > 0 && elements.every((element) => element.isTypeOnly);

/** The static imports and re-exports of a file on disk, resolved, each marked type-only or not. */
function edgesOnDisk(file, options, root, checked) {
  const known = edgeCache.get(file);
  // Within one linted file, each other file's date is looked at once.
  if (known && checked.has(file)) return known.edges;
  checked.add(file);
  let mtimeMs;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const cached = edgeCache.get(file);
  if (cached && cached.mtimeMs === mtimeMs) return cached.edges;
  const kind = file.endsWith(".tsx") || file.endsWith(".jsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false, kind);
  const edges = [];
  for (const statement of source.statements) {
    let specifier = null;
    let typeOnly = false;
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      specifier = statement.moduleSpecifier.text;
      const clause = statement.importClause;
      typeOnly = Boolean(
        clause &&
          (clause.isTypeOnly ||
            (!clause.name &&
              clause.namedBindings &&
              ts.isNamedImports(clause.namedBindings) &&
              allTypeOnly(clause.namedBindings.elements))),
      );
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      specifier = statement.moduleSpecifier.text;
      typeOnly =
        statement.isTypeOnly ||
        Boolean(statement.exportClause && ts.isNamedExports(statement.exportClause) && allTypeOnly(statement.exportClause.elements));
    }
    if (specifier === null) continue;
    const target = resolve(specifier, file, options, root);
    if (target) edges.push({ target, typeOnly });
  }
  edgeCache.set(file, { mtimeMs, edges });
  return edges;
}

/** The shortest way from `start` back to `goal`, as a list of edges, or null. */
function pathBack(start, goal, options, root, checked) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const edge of edgesOnDisk(file, options, root, checked)) {
      if (edge.target === goal) {
        const steps = [{ from: file, ...edge }];
        for (let at = previous.get(file); at; at = previous.get(at.from)) steps.unshift(at);
        return steps;
      }
      if (previous.has(edge.target)) continue;
      previous.set(edge.target, { from: file, ...edge });
      queue.push(edge.target);
    }
  }
  return null;
}

const isTypeOnlyImport = (node) =>
  node.importKind === "type" ||
  (node.specifiers.length > 0 &&
    node.specifiers.every((specifier) => specifier.type === "ImportSpecifier" && specifier.importKind === "type"));
const isTypeOnlyExport = (node) =>
  node.exportKind === "type" || (node.specifiers?.length > 0 && node.specifiers.every((specifier) => specifier.exportKind === "type"));

/** @type {import("eslint").Rule.RuleModule} */
export const typeImportCycle = {
  meta: {
    type: "problem",
    docs: { description: "No import cycle, counting type-only imports (import/no-cycle reports the value-only ones)" },
    schema: [
      {
        type: "object",
        properties: { root: { type: "string" }, tsconfig: { type: "string" } },
        additionalProperties: false,
      },
    ],
    messages: { cycle: "Import cycle through a type-only import: {{cycle}}. Move the shared types to a module of their own." },
  },
  create(context) {
    const cwd = context.cwd;
    const settings = context.options[0] ?? {};
    const root = path.resolve(cwd, settings.root ?? "app");
    const options = compilerOptions(path.resolve(cwd, settings.tsconfig ?? "tsconfig.json"));
    const self = path.resolve(context.filename);
    if (!self.startsWith(root + path.sep)) return {};
    const name = (file) => path.relative(cwd, file);
    const checked = new Set();

    function check(node, typeOnly) {
      const target = resolve(node.source.value, self, options, root);
      if (!target || target === self) return;
      const back = pathBack(target, self, options, root, checked);
      if (!back) return;
      // A cycle of value imports only is import/no-cycle's to report.
      if (!typeOnly && back.every((step) => !step.typeOnly)) return;
      const files = [self, target, ...back.map((step) => step.target)];
      context.report({ node, messageId: "cycle", data: { cycle: files.map(name).join(" → ") } });
    }

    return {
      ImportDeclaration: (node) => check(node, isTypeOnlyImport(node)),
      ExportNamedDeclaration: (node) => node.source && check(node, isTypeOnlyExport(node)),
      ExportAllDeclaration: (node) => check(node, node.exportKind === "type"),
    };
  },
};

export default { rules: { "type-import-cycle": typeImportCycle } };
