/**
 * @module model/field-index
 * Which data fields of a collection (flock + type) the SQL adapters keep in their value
 * index (issue 24: index what is queried, not everything). Every adapter answers every
 * filter alike; an index only makes it fast. Indexed are: the fields this service itself
 * looks up, sensible defaults per built-in type (`isIndexedByDefault`), fields named in
 * config `resourceTypes.<type>.indexes` or added by an operator, and fields that earn it
 * by demand. A filter on any other field is answered by a scan of the collection.
 *
 * The registry rows (`FieldIndexRow`, kept in the database so every process sees the same
 * ones) record only what differs from the defaults: added, earned and dropped fields, and a
 * back-fill's progress. The two rules below read them the same way in every adapter. Pure,
 * no I/O.
 */

/** The flock of a registry row that holds for every flock (config `resourceTypes.<type>.indexes`). */
export const EVERY_FLOCK = "*";

/**
 * A registry row's state: `building` (being back-filled: writes keep it, reads still scan),
 * `ready` (complete: reads use it) or `dropped` (writes no longer keep it, reads scan; its
 * leftover entries are removed in the background while `progress` < 1).
 */
export type FieldIndexState = "building" | "ready" | "dropped";

/**
 * Why a registry row exists. `migration`: a field an older version indexed, being dropped
 * (the row goes once its entries are removed). `default`: a field the defaults index, being
 * built again after a drop was reset (the row goes once it is built: the defaults rule).
 */
export type FieldIndexSource = "config" | "operator" | "demand" | "migration" | "default";

/** One registry row: a field whose index differs from the defaults. */
export interface FieldIndexRow {
  /** The flock, or `EVERY_FLOCK`. */
  flock: string;
  type: string;
  field: string;
  state: FieldIndexState;
  source: FieldIndexSource;
  /** How far the back-fill (`building`) or the removal (`dropped`) is, 0 to 1; 1 when done. */
  progress: number;
}

/** What an operator or the config asks of a field: keep an index of it, or none. */
export type FieldIndexWish = "index" | "drop";

/**
 * What operators see of one field (`records-service indexes`, the console): `declared`
 * (a default, the config's or an operator's), `earned` (by demand), `building` (with its
 * progress) or `dropped`.
 */
export type FieldIndexStatus = "declared" | "earned" | "building" | "dropped";

/** One field's index as operators see it. */
export interface FieldIndexView {
  type: string;
  field: string;
  status: FieldIndexStatus;
  /** Why: `default` (the service's own choice) or the ruling row's source. */
  source: FieldIndexSource;
  /** `EVERY_FLOCK` when the ruling row holds for every flock (config). */
  flock: string;
  /** How far a back-fill or removal is, 0 to 1. */
  progress: number;
}

/** The fields this service looks up itself, on every type: never dropped. */
const _ENGINE_FIELDS: readonly string[] = ["dedupe_key", "tags", "status", "date", "start_date", "end_date"];

/** Field name endings this service looks up itself (references). */
const _ENGINE_SUFFIXES: readonly string[] = ["_ref", "_uri"];

/**
 * Fields this service looks up itself on one type: the data events' purge and history, and
 * the scheduler's reference dates that are not engine fields of every type (its windows
 * filter `form_response.review_by` for `form_score_review_by`).
 */
const _ENGINE_TYPE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  data_event: ["fire_at", "expires_at"],
  form_response: ["review_by"],
};

/**
 * Sensible defaults per built-in type, beside the engine's own (may be dropped): what
 * people filter these types by. Kept short on purpose: each indexed field costs every
 * write of the type a few pages, and any other field earns its index when filtered on.
 */
const _TYPE_DEFAULTS: Readonly<Record<string, readonly string[]>> = {
  person: ["first_name", "last_name", "email"],
  organisation: ["name", "email"],
  membership: ["membership_type", "membership_number", "membership_record_status", "member"],
  reservation: ["person"],
};

/**
 * True when the service itself looks `field` of `type` up (references, dedupe keys, the
 * dates the scheduler and read models read): such an index can never be dropped.
 *
 * @example
 * isEngineField("ticket", "booking_ref") // true
 */
export function isEngineField(type: string, field: string): boolean {
  return _ENGINE_FIELDS.includes(field) || _ENGINE_SUFFIXES.some((s) => field.endsWith(s)) || (_ENGINE_TYPE_FIELDS[type]?.includes(field) ?? false);
}

/**
 * True when `field` of `type` is indexed unless a registry row says otherwise.
 *
 * @example
 * isIndexedByDefault("person", "last_name") // true
 * isIndexedByDefault("person", "shoe_size") // false
 */
export function isIndexedByDefault(type: string, field: string): boolean {
  return isEngineField(type, field) || (_TYPE_DEFAULTS[type]?.includes(field) ?? false);
}

/** The default-indexed fields of `type` that are named (the engine's suffix rule aside). */
export function namedDefaultFields(type: string): string[] {
  return [...new Set([..._ENGINE_FIELDS, ...(_ENGINE_TYPE_FIELDS[type] ?? []), ...(_TYPE_DEFAULTS[type] ?? [])])];
}

/**
 * The row that rules `field` in `flock`: the flock's own, else the every-flock one.
 * `rows` are the rows of the collection's type (any flock).
 */
export function rulingRow(rows: readonly FieldIndexRow[], flock: string, field: string): FieldIndexRow | undefined {
  let every: FieldIndexRow | undefined;
  for (const r of rows) {
    if (r.field !== field) continue;
    if (r.flock === flock) return r;
    if (r.flock === EVERY_FLOCK) every = r;
  }
  return every;
}

/**
 * True when writes must keep `field`'s index entries: it is indexed by default and not
 * dropped, or being built or ready.
 */
export function writesIndex(type: string, field: string, row: FieldIndexRow | undefined): boolean {
  if (!row) return isIndexedByDefault(type, field);
  return row.state !== "dropped";
}

/**
 * True when reads may answer a filter on `field` from its index: indexed by default and not
 * dropped, or ready. A field being built is still scanned: its index is not yet complete.
 */
export function readsIndex(type: string, field: string, row: FieldIndexRow | undefined): boolean {
  if (!row) return isIndexedByDefault(type, field);
  return row.state === "ready";
}

/** What operators see of a field ruled by `row` (undefined: the defaults). */
export function fieldIndexStatus(type: string, field: string, row: FieldIndexRow | undefined): FieldIndexStatus | undefined {
  if (!row) return isIndexedByDefault(type, field) ? "declared" : undefined;
  if (row.state === "building") return "building";
  if (row.state === "dropped") return "dropped";
  return row.source === "demand" ? "earned" : "declared";
}

/** The registry's order: by type, field and flock (code unit order, as `listFieldIndexes` answers). */
export function compareFieldIndexRows(a: FieldIndexRow, b: FieldIndexRow): number {
  const ka = [a.type, a.field, a.flock];
  const kb = [b.type, b.field, b.flock];
  for (let i = 0; i < 3; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
  return 0;
}
