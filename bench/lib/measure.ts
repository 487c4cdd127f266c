/**
 * @module bench/lib/measure
 * Timing helpers: medians of many timed calls after a warm-up, with "ours" and the
 * baseline interleaved round by round so that background load hits both alike.
 */

/** How long and how often to time a pair. */
export interface MeasureOptions {
  /** Untimed calls of each side first (JIT, page cache, statement cache). */
  warmup: number;
  /** At least this many timed calls of each side. */
  minIterations: number;
  /** At most this many timed calls of each side. */
  maxIterations: number;
  /** Stop after this much total time once `minIterations` is reached. */
  budgetMs: number;
}

/** The default for in-process queries; `quick` scales it down. */
export function measureOptions(quick: boolean): MeasureOptions {
  return quick
    ? { warmup: 3, minIterations: 5, maxIterations: 50, budgetMs: 200 }
    : { warmup: 30, minIterations: 15, maxIterations: 3000, budgetMs: 2500 };
}

/** Medians (ms) of two functions timed alternately. */
export interface PairTiming {
  ours: number;
  baseline: number;
  iterations: number;
}

/**
 * Times `ours(i)` and `baseline(i)` alternately (`i` is the iteration number, for cycling
 * through inputs) and returns each one's median in ms.
 */
export async function timePair(
  ours: (i: number) => unknown,
  baseline: (i: number) => unknown,
  opts: MeasureOptions,
): Promise<PairTiming> {
  for (let i = 0; i < opts.warmup; i++) {
    await ours(i);
    await baseline(i);
  }
  const a: number[] = [];
  const b: number[] = [];
  const started = performance.now();
  for (let i = 0; i < opts.maxIterations; i++) {
    // Alternate which side goes first, so neither always meets a cache the other warmed.
    const first = i % 2 === 0;
    if (first) a.push(await _time(ours, i));
    b.push(await _time(baseline, i));
    if (!first) a.push(await _time(ours, i));
    if (i + 1 >= opts.minIterations && performance.now() - started > opts.budgetMs) break;
  }
  return { ours: median(a), baseline: median(b), iterations: a.length };
}

/** The median of `xs` (NaN when empty). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((x, y) => x - y);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Rounds to 3 significant digits (for tables and JSON). */
export function round3(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(x))));
  return Number(x.toFixed(Math.min(digits, 6)));
}

// --- internal ---

async function _time(fn: (i: number) => unknown, i: number): Promise<number> {
  const t = performance.now();
  await fn(i);
  return performance.now() - t;
}
