/** The package ships no types: what its one function returns (prom2json's shape). */
declare module "parse-prometheus-text-format" {
  interface PromSample {
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  interface PromFamily {
    name: string;
    help: string;
    type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED";
    metrics: PromSample[];
  }
  /** Parses Prometheus text; throws on a line that is not valid. */
  export default function parsePrometheusTextFormat(text: string): PromFamily[];
}
