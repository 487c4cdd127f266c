/**
 * @module test/helpers/scrape
 * Reading a `/metrics` answer as Prometheus would. The text is first parsed by a Prometheus
 * text-format parser of its own (parse-prometheus-text-format, ported from the official
 * Python client: it throws on any line that is not valid), which also gives each family's
 * type. That parser folds a labelled histogram's series into one, so the samples are then
 * read line by line here (`name{labels} value`), a histogram's through its `_count` and `_sum`.
 */
import parsePrometheusTextFormat from "parse-prometheus-text-format";

/** One sample: its labels and value. */
interface Sample {
  labels: Record<string, string>;
  value: number;
}

/** One parsed exposition. */
export interface Scrape {
  /** Metric family names present. */
  names: string[];
  /** The samples of series `name` (for a histogram: `name_count`, with `sum` beside). */
  samples(name: string): (Sample & { count?: number; sum?: number })[];
  /** The value of the one sample of `name` whose labels include `labels`; undefined when none. */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** The family's type (`COUNTER`, `GAUGE`, `HISTOGRAM`, ...). */
  type(name: string): string | undefined;
}

/**
 * Parses `text`; throws when it is not valid Prometheus text.
 *
 * @example
 * const m = parseScrape(await (await fetch(url)).text());
 * m.value("records_http_requests_total", { route: "/api/v1/ping" });
 */
export function parseScrape(text: string): Scrape {
  const families = parsePrometheusTextFormat(text);
  const types = new Map(families.map((f) => [f.name, f.type]));
  const lines = new Map<string, Sample[]>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_x, c: string) => (c === "n" ? "\n" : c));
    const list = lines.get(m[1]!) ?? [];
    list.push({ labels, value: Number(m[3]!.replace(/^Nan$/i, "NaN")) });
    lines.set(m[1]!, list);
  }
  const same = (a: Record<string, string>, b: Record<string, string>) =>
    Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);
  const samples = (name: string) => {
    if (types.get(name) !== "HISTOGRAM") return lines.get(name) ?? [];
    const sums = lines.get(`${name}_sum`) ?? [];
    return (lines.get(`${name}_count`) ?? []).map((c) => ({ ...c, count: c.value, sum: sums.find((s) => same(s.labels, c.labels))?.value }));
  };
  return {
    names: families.map((f) => f.name),
    samples,
    value(name, labels = {}) {
      const found = samples(name).filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v));
      if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
      return found[0]?.value;
    },
    type: (name) => types.get(name),
  };
}
