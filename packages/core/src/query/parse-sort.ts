/**
 * @module query/parse-sort
 * The `sort` list parameter: one field name, with a leading `-` for descending order
 * (`sort=last_name`, `sort=-created`). Meta fields (`id`, `created`, `last_updated`) are
 * always accepted; a data field must pass the type's field check when there is one.
 */
import { badRequest } from "../errors.js";
import { FIELD_NAME_RE } from "../schema/input.js";
import { MAX_FIELD_NAME_LENGTH } from "./limits.js";
import { quoteForMessage as q } from "./split-key.js";
import { META_FIELDS, type ListSort } from "../model/query.js";

/**
 * The order `raw` asks for, or undefined when absent.
 *
 * @example
 * parseSort("-created") // { field: "created", meta: true, descending: true }
 * parseSort("last_name,first_name") // throws RecordsError("bad_request", "bad sort", ...)
 */
export function parseSort(raw: string | undefined, isKnownField?: (field: string) => boolean): ListSort | undefined {
  if (raw === undefined) return undefined;
  const descending = raw.startsWith("-");
  const field = descending ? raw.slice(1) : raw;
  if (!FIELD_NAME_RE.test(field) || field.length > MAX_FIELD_NAME_LENGTH) {
    throw badRequest(
      "bad sort",
      `sort ${q(raw)} is not accepted; give one field name, with a leading - for descending order ` +
        `(sort=last_name, sort=-created)`,
    );
  }
  const meta = (META_FIELDS as readonly string[]).includes(field);
  if (!meta && isKnownField && !isKnownField(field)) {
    throw badRequest("bad sort", `sort ${q(raw)}: ${q(field)} is not a field of this resource type; sort by one of its fields or by ${META_FIELDS.join(", ")}`);
  }
  return { field, meta, descending };
}
