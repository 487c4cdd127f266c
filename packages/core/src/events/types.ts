/**
 * @module events/types
 * The shape of the event catalogue: what an event is about, when it fires and under which
 * conditions. The data itself is in `events/catalogue.ts`.
 */

/** The spec's four event tables. */
export type EventGroup = "general" | "membership" | "payment" | "other";

/**
 * When an event is emitted:
 * - `relative`: by the scheduler, a number of days before or after a date of the record;
 * - `action`: by the engine, at the time of the change or action it describes;
 * - `daily`: by the scheduler, once a day (not about one record).
 */
export type EventTiming = "relative" | "action" | "daily";

/**
 * A condition on the context record's data that must hold for a date-relative event to fire.
 * - `flag`: `is: true` holds when the field is set (`isFlagSet`: `true`, `1`, `"1"`, `"true"` in any case);
 *   `is: false` holds otherwise (unset included);
 * - `not_one_of` / `one_of`: the field's text, compared without case, is not / is one of `values`
 *   (an unset field is "not one of" anything);
 * - `unpaid`: no payment references the record (the caller supplies the paid URIs).
 */
export type EventCondition =
  | { kind: "flag"; field: string; is: boolean }
  | { kind: "one_of"; field: string; values: readonly string[] }
  | { kind: "not_one_of"; field: string; values: readonly string[] }
  | { kind: "unpaid" };

/** One fixed variation of an event. */
export interface VariationEntry {
  /** The suffix in the trigger name (`2wk`, `created`); null for none. */
  name: string | null;
  /** Relative events: the modifier's days as the spec's tables write them (`2wk` = 14, `minus_1d` = -1). */
  offsetDays: number | null;
  /**
   * Relative events: signed days from the reference date to the firing (negative = before).
   * `expiring_2wk` = -14, `lapsed_90d` = 90, `ticketed_event_minus_1d` = 1.
   */
  fireOffsetDays: number | null;
  deprecated: boolean;
  /** Conditions of this variation on top of the event's own. */
  conditions: readonly EventCondition[];
}

/** A family of variations written as a pattern, e.g. `state_{from}_to_{to}`. */
export interface VariationPattern {
  /** As the spec writes it. */
  template: string;
  /** Matches the variation part of a trigger name. */
  regex: RegExp;
}

/** One event of the catalogue. */
export interface EventEntry {
  /** The event name: the trigger name without its variation. */
  event: string;
  group: EventGroup;
  timing: EventTiming;
  /** The resource types of the record the event is about (its `context_ref`); empty when none. */
  resourceTypes: readonly string[];
  /**
   * Relative events: the field the days count from (`end_date`, `start_date`, `date`,
   * `review_by`, or `created` = the record's creation time). Action events: the field that
   * names the event's date in the spec's table, or null for "date/time of action".
   */
  dateField: string | null;
  /** Relative events: whether a positive modifier fires before or after the date. */
  direction: "before" | "after" | null;
  /** Conditions every variation must meet (relative events). */
  conditions: readonly EventCondition[];
  variations: readonly VariationEntry[];
  patterns: readonly VariationPattern[];
  deprecated: boolean;
  /** The spec's note, or the decision that fills a gap. */
  description: string;
}

/** The catalogue with its lookup index. Built by `createCatalogue`. */
export interface Catalogue {
  readonly events: readonly EventEntry[];
  /** Every fixed trigger name → its event and variation. */
  readonly triggers: ReadonlyMap<string, { entry: EventEntry; variation: VariationEntry }>;
  /** The entry of an event name. */
  event(name: string): EventEntry | undefined;
}
