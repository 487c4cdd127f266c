/**
 * @module http/limits
 * The HTTP server's fixed bounds on request bodies, in one place (the whole body's cap is a
 * setting: config/schema `TUNING_DEFAULTS.http.bodyLimitBytes`); the bounds on record data and
 * list answers are core's (`query/limits`). Each has its own 4xx naming it and the value
 * accepted; docs/decisions.md says why each value was chosen.
 */

/**
 * Cap on every body that is not a multipart upload (JSON, form-encoded, anything else):
 * 1 MiB, or the body limit when that is lower. Parsing is synchronous: the worst 1 MiB of
 * JSON (a list of empty objects) takes about 40 ms to parse, the worst 10 MiB a second.
 */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/**
 * Deepest nesting of arrays and objects accepted in a JSON body. Record data is shallow;
 * the bound keeps recursive code further in (comparison, storage) from running out of stack.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Most values in one JSON body (the root, every list entry and every object member),
 * counted before parsing. A record holds at most 2,000 (core's `MAX_VALUES_PER_RECORD`);
 * 20,000 of the costliest kind parse in about 10 ms.
 */
export const MAX_JSON_VALUES = 20_000;

/**
 * Most parts in one multipart body, and most fields in one form-encoded body. Counted on
 * the raw bytes before parsing: the parser is synchronous and takes about 45 ms per 1,000
 * parts, so a 10 MiB body of tiny parts would stall the server for seconds.
 */
export const MAX_BODY_PARTS = 100;
