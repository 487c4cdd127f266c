/**
 * @module test/helpers/public-api
 * Each workspace package's public API as its entry points export it (TypeScript's own list
 * of a module's exports, every `exports` subpath with a `source`), written as the
 * "Public API" section of the package's README: per subpath, the modules the names are
 * declared in, with each module's summary line and its names (types marked). The test
 * `public-api.test.ts` holds every README's section to this, so a package exports what its
 * README documents and nothing else.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import ts from "typescript";

/** The markers around the generated section of a README. */
export const API_START = "<!-- public-api:start (generated: UPDATE_API_READMES=1 npx vitest run public-api) -->";
export const API_END = "<!-- public-api:end -->";

/** One exported name and where it is declared. */
interface ExportedName {
  name: string;
  type: boolean;
  module: string;
}

/**
 * The README section of the package in `dir` (a workspace package folder).
 *
 * @example
 * apiSection("/repo/packages/sqlite") // "<!-- public-api:start ... -->\n## Public API\n..."
 */
export function apiSection(dir: string): string {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string; exports?: Record<string, { source?: string }> };
  const out = [API_START, "## Public API", ""];
  for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
    if (!target.source) continue;
    const names = _exportsOf(dir, join(dir, target.source));
    const spec = subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
    out.push(`### \`${spec}\``, "", `${names.length} names (${names.filter((n) => n.type).length} of them types only).`, "");
    const byModule = new Map<string, ExportedName[]>();
    for (const n of names) byModule.set(n.module, [...(byModule.get(n.module) ?? []), n]);
    for (const [module, list] of [...byModule].sort(([a], [b]) => _byCodeUnits(a, b))) {
      const summary = _summary(join(dir, module));
      out.push(`- \`${module}\`${summary ? `: ${summary}` : ""}`);
      out.push(`  ${list.map((n) => (n.type ? `\`${n.name}\` (type)` : `\`${n.name}\``)).join(", ")}`);
    }
    out.push("");
  }
  out.push(API_END);
  return out.join("\n");
}

/** The generated section as it stands in `readme`, or undefined when it has none. */
export function readmeSection(readme: string): string | undefined {
  const start = readme.indexOf(API_START);
  const end = readme.indexOf(API_END);
  return start < 0 || end < start ? undefined : readme.slice(start, end + API_END.length);
}

// --- internal ---

function _exportsOf(dir: string, entry: string): ExportedName[] {
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    jsx: ts.JsxEmit.ReactJSX,
    skipLibCheck: true,
    noEmit: true,
    customConditions: ["source"],
  });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(entry);
  const moduleSymbol = file && checker.getSymbolAtLocation(file);
  if (!moduleSymbol) throw new Error(`no module at ${entry}`);
  return checker
    .getExportsOfModule(moduleSymbol)
    .map((s) => {
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      const decl = target.declarations?.[0];
      const declFile = decl ? decl.getSourceFile().fileName : entry;
      const module = declFile.startsWith(dir) ? relative(dir, declFile) : relative(dirname(dir), declFile);
      return { name: s.name, type: (target.flags & ts.SymbolFlags.Value) === 0, module };
    })
    .sort((a, b) => _byCodeUnits(a.name, b.name));
}

/** Code-unit order: the same on every machine, whatever its locale. */
function _byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first sentence of a module's `@module` comment (or of its first doc comment). */
function _summary(file: string): string {
  if (!existsSync(file)) return "";
  const text = readFileSync(file, "utf8");
  const doc = /\/\*\*([\s\S]*?)\*\//.exec(text)?.[1] ?? "";
  const lines = doc
    .split("\n")
    .map((l) => l.replace(/^\s*\*\s?/, "").trim())
    .filter((l) => l !== "" && !l.startsWith("@module"));
  const prose = lines.join(" ");
  const end = prose.search(/[.:](\s|$)/);
  return (end < 0 ? prose : prose.slice(0, end)).replace(/\s+/g, " ").slice(0, 200);
}
