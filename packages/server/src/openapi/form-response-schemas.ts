/**
 * @module openapi/form-response-schemas
 * The answers of the member app's form response paths (spec v2-gateway section 9), named
 * for the OpenAPI document's components (merged into `COMPONENT_SCHEMAS`).
 */
import * as v from "valibot";

const str = v.string();
const timestamp = v.pipe(v.string(), v.description("YYYY-MM-DDTHH:MM:SS.ffffff, UTC, no zone"));

/** The single-record shape of one response (as every single-record answer). */
const _RESPONSE = v.object({
  bucket: str,
  data: v.pipe(
    v.record(v.string(), v.unknown()),
    v.description("form_ref (expanded to {display_value, ref}), status, contact_ref (null, or expanded), requested_by_ref (null, or expanded), and any other stored field"),
  ),
  display_value: str,
  links: v.array(v.unknown()),
  meta: v.object({ created: timestamp, last_updated: timestamp, state: str }),
  resource: str,
  uri: str,
});

/** The form response components, by name. */
export const FORM_RESPONSE_SCHEMAS = {
  FormResponseStartBody: v.pipe(
    v.object({
      form_ref: v.pipe(str, v.description("the form's URI, /{flock}/form/{id}/ or /{flock}/sheep_form/{id}/")),
      quantity: v.optional(v.pipe(v.union([v.number(), str]), v.description("how many responses, 1..50 (default 1)"))),
    }),
    v.description("Also accepted as query parameters; a body value wins over a query value."),
  ),
  FormResponseAllocateBody: v.pipe(
    v.object({ contact_ref: v.pipe(str, v.description("a person's or organisation's URI in the flock")) }),
    v.description("Also accepted as a query parameter; a body value wins over a query value."),
  ),
  FormResponsesCreated: v.object({
    form_ref: v.pipe(str, v.description("the form's URI")),
    quantity: v.pipe(v.number(), v.description("how many were created (1..50)")),
    form_responses: v.array(_RESPONSE),
  }),
};
