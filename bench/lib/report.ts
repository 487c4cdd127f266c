/**
 * @module bench/lib/report
 * Turns scenario results into the printed table and the JSON file: whether each target is
 * met, and how each scenario's cost grows from the smallest to the largest size compared
 * with the result it returns.
 */
import { cpus, loadavg, totalmem } from "node:os";
import { formatSize } from "./seed.js";
import { round3 } from "./measure.js";
import type { ScenarioResult } from "./types.js";

/** A result with the size it was measured at. */
export type SizedResult = ScenarioResult & { size: number };

/** How much faster than its result a cost may grow before the growth target fails (B-tree depth, caches). */
const GROWTH_ALLOWANCE = 2;

/**
 * Whether `r` meets its target: a target with a unit ("< 500 ms") is on `ours`, one without
 * ("<= 1.5", ">= 0.6") on `ratio`. Undefined without a target or a figure.
 */
export function targetMet(r: ScenarioResult): boolean | undefined {
  if (!r.target) return undefined;
  const m = /^(<=|>=|<|>)\s*([\d.]+)\s*([a-zA-Z/%]*)$/.exec(r.target.trim());
  if (!m) return undefined;
  const value = m[3] ? r.ours : r.ratio;
  if (value === null || value === undefined || !Number.isFinite(value)) return undefined;
  const bound = Number(m[2]);
  switch (m[1]) {
    case "<=":
      return value <= bound;
    case ">=":
      return value >= bound;
    case "<":
      return value < bound;
    default:
      return value > bound;
  }
}

/**
 * For each timed (ms) scenario measured at both the smallest and the largest size: cost
 * growth against result growth (`rows`, at least 1). Met when the cost grows at most
 * `GROWTH_ALLOWANCE` times faster than the result.
 */
export function growthResults(results: readonly SizedResult[]): SizedResult[] {
  const sizes = [...new Set(results.map((r) => r.size))].sort((a, b) => a - b);
  if (sizes.length < 2) return [];
  const [small, large] = [sizes[0]!, sizes[sizes.length - 1]!];
  const out: SizedResult[] = [];
  for (const a of results.filter((r) => r.size === small && r.unit === "ms" && r.ours !== null && r.rows !== undefined)) {
    const b = results.find((r) => r.size === large && r.scenario === a.scenario);
    if (!b || b.ours === null || b.rows === undefined) continue;
    const cost = b.ours / a.ours!;
    const result = Math.max(1, b.rows) / Math.max(1, a.rows!);
    const r: SizedResult = {
      scenario: `growth ${formatSize(small)}->${formatSize(large)}: ${a.scenario}`,
      size: large,
      ours: round3(cost),
      baseline: round3(result),
      baselineName: "result growth",
      unit: "x",
      ratio: round3(cost / result),
      target: `<= ${GROWTH_ALLOWANCE}`,
      note: `cost ${a.ours} -> ${b.ours} ms; matches ${a.rows} -> ${b.rows}`,
    };
    out.push({ ...r, met: targetMet(r)! });
  }
  return out;
}

/** One line per scenario group and size: where its data came from (the first `data` its rows give). */
export function dataSources(results: readonly SizedResult[]): string {
  const seen = new Map<string, string>();
  for (const r of results) {
    const key = `${formatSize(r.size)} ${r.scenario.split(":")[0]}`;
    if (!seen.has(key)) seen.set(key, r.data ?? "(not given)");
    else if (seen.get(key) === "(not given)" && r.data) seen.set(key, r.data);
  }
  return [...seen].map(([k, v]) => `  ${k}: ${v}`).join("\n");
}

/** The results table as fixed-width text. */
export function formatTable(results: readonly SizedResult[]): string {
  const head = ["size", "scenario", "ours", "baseline", "unit", "ratio", "target", "met?", "note"];
  const rows = results.map((r) => [
    formatSize(r.size),
    r.scenario,
    _num(r.ours),
    r.baseline === null ? "n/a" : `${_num(r.baseline)}${r.baselineName ? ` (${r.baselineName})` : ""}`,
    r.unit,
    r.ratio === null ? "n/a" : _num(r.ratio),
    r.target ?? "",
    r.met === undefined ? "" : r.met ? "yes" : "NO",
    (r.note ?? "").slice(0, 90),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

/** The results table as Markdown (docs/performance.md). */
export function formatMarkdown(results: readonly SizedResult[]): string {
  const out = ["| size | scenario | ours | baseline | ratio | target | met? |", "|---|---|---|---|---|---|---|"];
  for (const r of results) {
    const baseline = r.baseline === null ? `n/a${r.note ? ` (${r.note})` : ""}` : `${_num(r.baseline)} ${r.unit}${r.baselineName ? ` (${r.baselineName})` : ""}`;
    out.push(
      `| ${formatSize(r.size)} | ${r.scenario} | ${r.ours === null ? "n/a" : `${_num(r.ours)} ${r.unit}`} | ${baseline} | ${r.ratio === null ? "n/a" : _num(r.ratio)} | ${r.target ?? ""} | ${r.met === undefined ? "" : r.met ? "yes" : "**no**"} |`,
    );
  }
  return out.join("\n");
}

/** The machine, for the JSON file and the docs. */
export function machine(): Record<string, unknown> {
  return {
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? "unknown",
    memoryGb: round3(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

/** The 1, 5 and 15 minute load averages (two cores here: above 2 means work was waiting). */
export function loadAverage(): number[] {
  return loadavg().map((x) => Math.round(x * 100) / 100);
}

// --- internal ---

function _num(x: number | null): string {
  if (x === null) return "n/a";
  return String(round3(x));
}
