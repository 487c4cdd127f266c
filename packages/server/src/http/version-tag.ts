/**
 * @module http/version-tag
 * A record's version as an HTTP entity tag: the single-record GET answers `ETag: "7"`, and
 * an update sent with `If-Match: "7"` is applied only while the record is still at version 7
 * (optimistic concurrency for editors such as the console; 409 "version conflict" otherwise).
 */
import { badRequest } from "@records-service/core";

/** The `ETag` value of a record version. */
export function versionTag(version: number): string {
  return `"${version}"`;
}

/**
 * The version an `If-Match` header asks for: undefined when the header is absent or `*`
 * (any version); a value that is not one version tag is a 400 naming the header.
 *
 * @example
 * expectedVersionOf('"7"')   // 7
 * expectedVersionOf('W/"7"') // 7
 * expectedVersionOf(undefined) // undefined
 */
export function expectedVersionOf(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === "*") return undefined;
  const m = _TAG.exec(header.trim());
  if (!m) {
    throw badRequest("invalid If-Match", `If-Match must be one record version as an entity tag, such as "7" (the ETag of the record's GET); got ${JSON.stringify(header.slice(0, 40))}`);
  }
  return Number(m[1]);
}

// --- internal ---

/** One tag, weak or strong, holding the version's decimal digits (no leading zeros). */
const _TAG = /^(?:W\/)?"(0|[1-9][0-9]{0,14})"$/;
