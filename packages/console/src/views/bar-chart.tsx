/**
 * @module views/bar-chart
 * A small bar chart drawn by uPlot (canvas), with the same numbers as a table beside it:
 * the chart is for the eye, the table for screen readers and for exact values. Colours come
 * from the page's CSS variables, so the chart follows dark mode; it is redrawn at the
 * width of its box.
 */
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

export interface Bar {
  label: string;
  value: number;
  /** A shorter label for the axis, where the bars are narrow. */
  short?: string;
}

export function BarChart({ title, bars }: { title: string; bars: Bar[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || bars.length === 0) return;
    const css = getComputedStyle(document.documentElement);
    const colour = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
    const fg = colour("--fg", "#1b1f24");
    const accent = colour("--accent", "#0b5cad");
    const line = colour("--line", "#c9d1d9");
    const labels = bars.map((b) => b.short ?? b.label);
    // At most one label per 56 px (months on a phone would overlap), counted from the last bar.
    const every = () => Math.max(1, Math.ceil(bars.length / Math.max(2, Math.floor(el.clientWidth / 56))));
    const make = () =>
      new uPlot(
        {
          width: Math.max(200, el.clientWidth),
          height: 200,
          legend: { show: false },
          cursor: { show: false },
          scales: { x: { time: false, range: [-0.5, bars.length - 0.5] }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
          axes: [
            { stroke: fg, grid: { show: false }, ticks: { show: false }, splits: () => bars.map((_, i) => i), values: (_u, splits) => splits.map((i) => ((bars.length - 1 - i) % every() === 0 ? (labels[i] ?? "") : "")) },
            { stroke: fg, grid: { stroke: line, width: 1 }, ticks: { stroke: line }, values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? String(v) : "")) },
          ],
          series: [{}, { label: title, stroke: accent, fill: accent, paths: uPlot.paths.bars!({ size: [0.6, 64] }), points: { show: false } }],
        },
        [bars.map((_, i) => i), bars.map((b) => b.value)],
        el,
      );
    let plot = make();
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(200, el.clientWidth), height: 200 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [title, JSON.stringify(bars)]);
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div ref={box} class="plot" role="img" aria-label={`${title}: ${bars.map((b) => `${b.label} ${b.value}`).join(", ")}`} />
      <details>
        <summary>Numbers</summary>
        <table class="chart-data">
          <caption class="sr-only">{title}</caption>
          <tbody>
            {bars.map((b) => (
              <tr key={b.label}>
                <th scope="row">{b.label}</th>
                <td class="num">{b.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
