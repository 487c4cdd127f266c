/**
 * @module openapi/list-query
 * The list operation's query parameters, described from core's own tables (the modifiers,
 * the v2-only ones, the smart dates, the page limits), so the document follows the parser.
 */
import { DEFAULT_PAGE_SIZE, MAX_FILTERS, MAX_PAGE_SIZE, META_FIELDS, MODIFIERS, SMART_DATES, V2_ONLY_MODIFIERS } from "@records-service/core";
import type { OpenAPIV3_1 } from "openapi-types";
import type { Surface } from "../http/surface.js";
import { queryParam } from "./describe.js";

const _MODIFIER_MEANINGS: Readonly<Record<(typeof MODIFIERS)[number], string>> = {
  and: "every value given (repeat the parameter) must be an entry of the list field",
  andlist: "comma-separated values; the record must have all of them",
  contains: "the text contains the value",
  eq: "exact, case-sensitive match of the whole stored value (what a bare field=value means)",
  gt: "greater than",
  gte: "greater than or equal",
  lt: "less than",
  lte: "less than or equal",
  ne: "not equal",
  near: "near",
  none: "none of the values given",
  or: "any of the values given (repeat the parameter)",
  orlist: "comma-separated values; the record must have any of them",
  raw: "the value as stored, unconverted",
  startswith: "starts with",
  startswithi: "starts with, case ignored",
};

/** The list operation's parameters on a surface. */
export function listQueryParams(surface: Surface): OpenAPIV3_1.ParameterObject[] {
  const modifiers = MODIFIERS.filter((m) => surface === "v2" || !V2_ONLY_MODIFIERS.includes(m));
  const filters =
    `Field filters: \`{field}={value}\` (exact) or \`{field}__{modifier}={value}\`, at most ${MAX_FILTERS}. Modifiers:\n\n` +
    modifiers.map((m) => `- \`__${m}\`: ${_MODIFIER_MEANINGS[m]}`).join("\n") +
    (surface === "v1" ? `\n\n\`__${V2_ONLY_MODIFIERS.join("` and `__")}\` are v2 only: on v1 they answer 400.` : "") +
    "\n\nSmart dates may stand in for a date value (resolved from the service's clock, UTC): " +
    SMART_DATES.map((d) => `\`${d}\``).join(", ") +
    ". Meta fields `created`, `last_updated` and `state` filter on the record itself.";
  return [
    {
      in: "query",
      name: "filters",
      description: filters,
      required: false,
      style: "form",
      explode: true,
      schema: { type: "object", additionalProperties: { type: "string" } },
    },
    queryParam("mode", "How several field filters combine: AND (default) or OR.", { type: "string", enum: ["AND", "OR"] }),
    queryParam("include_deleted", "Y includes deleted records.", { type: "string", enum: ["Y", "N"] }),
    queryParam("state", "With include_deleted=Y, `deleted` returns only deleted records.", { type: "string" }),
    queryParam("page", "Page number, from 1.", { type: "integer", minimum: 1 }),
    queryParam("page_size", `Records per page, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).`, {
      type: "integer",
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
    }),
    queryParam("limit", "Another name for page_size.", { type: "integer", minimum: 1, maximum: MAX_PAGE_SIZE }),
    queryParam(
      "sort",
      "The order of the list: one field name, `-` in front for descending (`sort=last_name`, `sort=-created` for newest first); " +
        `a data field or one of ${META_FIELDS.map((f) => `\`${f}\``).join(", ")}. Without it, the order records were created in. ` +
        "A data field orders records with a number first (by it), then those with text (case ignored), then those without a value, " +
        "in either direction; a list by its least entry; ties keep creation order. A bad name or an unknown person field answers 400.",
      { type: "string", pattern: "^-?[A-Za-z_][A-Za-z0-9_]*$" },
    ),
  ];
}
