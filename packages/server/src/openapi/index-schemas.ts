/**
 * @module openapi/index-schemas
 * The answers of the value index's operator routes (`/{flock}/_indexes/`), as valibot
 * schemas named for the OpenAPI document's components.
 */
import * as v from "valibot";

const _VIEW = v.pipe(
  v.object({
    type: v.string(),
    field: v.string(),
    status: v.pipe(
      v.picklist(["declared", "earned", "building", "dropped"]),
      v.description("declared: a default, the config's or an operator's; earned: by demand; building: being back-filled (filters scan until done); dropped: not indexed"),
    ),
    source: v.pipe(v.picklist(["default", "config", "operator", "demand", "migration"]), v.description("why: the service's defaults, or the ruling row's source")),
    flock: v.pipe(v.string(), v.description('the flock, or "*" when the ruling row holds for every flock (the config\'s)')),
    progress: v.pipe(v.number(), v.description("how far a back-fill or a removal is, 0 to 1")),
  }),
  v.description("One field's value index as operators see it."),
);

export const INDEX_SCHEMAS = {
  FieldIndexes: v.object({ indexes: v.array(_VIEW) }),
  FieldIndex: v.object({ index: _VIEW }),
  FieldIndexReset: v.object({
    reset: v.pipe(v.boolean(), v.description("false when the field had no row of its own in the flock (nothing changed)")),
    index: v.pipe(v.nullable(_VIEW), v.description("the field's index now, or null when the defaults do not index it")),
  }),
};
