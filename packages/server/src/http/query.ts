/**
 * @module http/query
 * Query parameters read through a valibot schema: each route declares what it takes, and a
 * bad value is a 400 naming the parameter and what would be accepted. Parameters a route
 * does not name are ignored (clients of the hosted service send their own extras).
 */
import { badRequest } from "@records-service/core";
import type { Context } from "hono";
import * as v from "valibot";

/** Any schema of an object of query parameters (strings in, typed values out). */
export type QuerySchema = v.GenericSchema<Record<string, string | undefined>, Record<string, unknown>>;

/**
 * The request's query parameters (the first value of each), checked and typed by `schema`.
 *
 * @example
 * const { email } = readQuery(c, v.object({ email: v.pipe(v.string(), v.email()) }));
 */
export function readQuery<S extends QuerySchema>(c: Context, schema: S): v.InferOutput<S> {
  const result = v.safeParse(schema, c.req.query());
  if (result.success) return result.output;
  const issue = result.issues[0];
  const key = issue.path?.map((p) => String(p.key)).join(".") ?? "query";
  const problem = issue.input === undefined ? "is required" : issue.message;
  throw badRequest("invalid query parameter", `${key} ${problem}`);
}

/** A yes/no parameter as the hosted service's clients write it (`true`, `1`, `y` ...). */
export const queryFlag = v.optional(
  v.pipe(
    v.string(),
    v.toLowerCase(),
    v.picklist(["true", "false", "1", "0", "y", "n", "yes", "no"], "must be true or false"),
    v.transform((s) => ["true", "1", "y", "yes"].includes(s)),
  ),
);

/** A whole number in `[min, max]`, written in the query. */
export function queryInt(min: number, max: number) {
  return v.pipe(
    v.string(),
    v.regex(/^\d{1,9}$/, `must be a whole number from ${min} to ${max}`),
    v.transform(Number),
    v.number(),
    v.minValue(min, `must be a whole number from ${min} to ${max}`),
    v.maxValue(max, `must be a whole number from ${min} to ${max}`),
  );
}
