/**
 * @module events/modifiers
 * The variation modifiers of date-relative events: the word in a trigger name
 * (`expiring_2wk`) and the number of days it stands for. This is the spec's general
 * modifier table plus the few words the event tables need beyond it (see docs/events.md).
 */

/** One modifier word and its days, as the spec's general table reads ("days from the event date to the firing"). */
export interface Modifier {
  /** The word in a trigger name; null is the spec's "(no suffix)" for 0 days. */
  word: string | null;
  days: number;
  /** True for words the spec's general table lists; false for the ones added here. */
  inSpecTable: boolean;
}

/**
 * Every modifier, in the order of the spec's table (largest first). Words not in the
 * spec's general table are decided here: `6wk` and `2d` follow its naming, `minus_30d`
 * names vm_start's -30, and `soon` (expiring, renewing) is 3 days.
 */
export const MODIFIERS: readonly Modifier[] = Object.freeze([
  { word: "180d", days: 180, inSpecTable: true },
  { word: "90d", days: 90, inSpecTable: true },
  { word: "6wk", days: 42, inSpecTable: false },
  { word: "4wk", days: 28, inSpecTable: true },
  { word: "3wk", days: 21, inSpecTable: true },
  { word: "2wk", days: 14, inSpecTable: true },
  { word: "1wk", days: 7, inSpecTable: true },
  { word: "soon", days: 3, inSpecTable: false },
  { word: "2d", days: 2, inSpecTable: false },
  { word: "1d", days: 1, inSpecTable: true },
  { word: null, days: 0, inSpecTable: true },
  { word: "minus_1d", days: -1, inSpecTable: true },
  { word: "minus_2d", days: -2, inSpecTable: true },
  { word: "minus_1wk", days: -7, inSpecTable: true },
  { word: "minus_2wk", days: -14, inSpecTable: true },
  { word: "minus_3wk", days: -21, inSpecTable: true },
  { word: "minus_4wk", days: -28, inSpecTable: true },
  { word: "minus_30d", days: -30, inSpecTable: false },
  { word: "minus_90d", days: -90, inSpecTable: true },
  { word: "minus_180d", days: -180, inSpecTable: true },
]);

/**
 * The days a modifier word stands for, or undefined for an unknown word. `null` (no suffix) is 0.
 *
 * @example
 * modifierDays("2wk") // 14
 * modifierDays("minus_1d") // -1
 */
export function modifierDays(word: string | null): number | undefined {
  return MODIFIERS.find((m) => m.word === word)?.days;
}

/**
 * The word for a number of days as the spec's event tables write it (`7` → `1wk`,
 * `-30` → `minus_30d`, `0` → null). Throws for a number no modifier stands for; `soon`
 * is never returned (it is only ever written as a word).
 *
 * @example
 * modifierWord(-14) // "minus_2wk"
 */
export function modifierWord(days: number): string | null {
  const m = MODIFIERS.find((x) => x.days === days && x.word !== "soon");
  if (!m) throw new Error(`no variation modifier stands for ${days} days`);
  return m.word;
}
