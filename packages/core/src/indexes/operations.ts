/**
 * @module indexes/operations
 * What operators do with the value index's registry (`records-service indexes`, the
 * console): see each field's index (declared, earned, building n%, dropped), add one, drop
 * one, or hand a field back to the defaults. The flock and type are checked as every record
 * operation checks them; a field the service looks up itself cannot be dropped.
 */
import { badRequest } from "../errors.js";
import { EVERY_FLOCK, fieldIndexStatus, isEngineField, isIndexedByDefault, namedDefaultFields, rulingRow, type FieldIndexRow, type FieldIndexView } from "../model/field-index.js";
import { requireFlock, requireFlockAndType } from "../records/guards.js";
import type { EngineContext } from "../records/types.js";
import { FIELD_NAME_RE } from "../schema/record-limits.js";

/**
 * The indexes of `flock`'s types (`types`, and every type a registry row names): the
 * named defaults and every registry row, by type and field.
 */
export async function listFieldIndexViews(ctx: EngineContext, flock: string, types: Iterable<string>): Promise<FieldIndexView[]> {
  await requireFlock(ctx, flock);
  const rows = await ctx.storage.listFieldIndexes(flock);
  const byType = new Map<string, FieldIndexRow[]>();
  for (const t of types) byType.set(t, []);
  for (const r of rows) (byType.get(r.type) ?? byType.set(r.type, []).get(r.type)!).push(r);
  const views: FieldIndexView[] = [];
  for (const [type, ofType] of [...byType].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const fields = [...new Set([...namedDefaultFields(type), ...ofType.map((r) => r.field)])].sort();
    for (const field of fields) {
      const row = rulingRow(ofType, flock, field);
      const status = fieldIndexStatus(type, field, row);
      if (status === undefined) continue;
      views.push({ type, field, status, source: row?.source ?? "default", flock: row?.flock ?? flock, progress: row ? row.progress : 1 });
    }
  }
  return views;
}

/** Asks for `field`'s index in `flock` (built in the background, `stepFieldIndexes`). */
export async function addFieldIndex(ctx: EngineContext, flock: string, type: string, field: string): Promise<FieldIndexView> {
  await _check(ctx, flock, type, field);
  return _view(await ctx.storage.setFieldIndex(flock, type, field, "index", "operator"));
}

/** Drops `field`'s index in `flock`: filters on it scan; 400 for a field the service looks up itself. */
export async function dropFieldIndex(ctx: EngineContext, flock: string, type: string, field: string): Promise<FieldIndexView> {
  await _check(ctx, flock, type, field);
  if (isEngineField(type, field)) throw badRequest("index needed", `the service looks up '${field}' itself: its index cannot be dropped`);
  return _view(await ctx.storage.setFieldIndex(flock, type, field, "drop", "operator"));
}

/**
 * Hands `field` in `flock` back to the defaults (and any every-flock row); false when it had
 * no row of its own. A field the defaults index whose own row is dropped or building is
 * built first (`removeFieldIndex`'s contract), so no read trusts entries that are not all there.
 */
export async function resetFieldIndex(ctx: EngineContext, flock: string, type: string, field: string): Promise<boolean> {
  await _check(ctx, flock, type, field);
  return ctx.storage.removeFieldIndex(flock, type, field);
}

/**
 * The every-flock rows config `resourceTypes.<type>.indexes` asks for: each named field
 * gets one (source `config`), and an earlier config's rows that are no longer named go.
 * Answers how many rows changed.
 */
export async function applyConfigIndexes(ctx: EngineContext, wanted: Readonly<Record<string, readonly string[]>>): Promise<number> {
  let changed = 0;
  for (const fields of Object.values(wanted)) for (const f of fields) _requireName(f);
  const now = await ctx.storage.listFieldIndexes(EVERY_FLOCK);
  for (const r of now) {
    if (r.flock !== EVERY_FLOCK || r.source !== "config" || r.state === "dropped") continue;
    if (!(wanted[r.type] ?? []).includes(r.field)) changed += Number(await ctx.storage.removeFieldIndex(EVERY_FLOCK, r.type, r.field));
  }
  for (const [type, fields] of Object.entries(wanted)) {
    for (const field of fields) {
      const row = rulingRow(now.filter((r) => r.type === type), EVERY_FLOCK, field);
      if (row && row.state !== "dropped") continue;
      if (!row && isIndexedByDefault(type, field)) continue;
      await ctx.storage.setFieldIndex(EVERY_FLOCK, type, field, "index", "config");
      changed += 1;
    }
  }
  return changed;
}

// --- internal ---

async function _check(ctx: EngineContext, flock: string, type: string, field: string): Promise<void> {
  await requireFlockAndType(ctx, flock, type);
  _requireName(field);
}

function _requireName(field: string): void {
  if (!FIELD_NAME_RE.test(field)) throw badRequest("bad field name", `'${field}' is not a data field name (letters, digits and _, not starting with a digit)`);
}

function _view(r: FieldIndexRow): FieldIndexView {
  return { type: r.type, field: r.field, status: fieldIndexStatus(r.type, r.field, r)!, source: r.source, flock: r.flock, progress: r.progress };
}
