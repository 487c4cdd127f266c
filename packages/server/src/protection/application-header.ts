/**
 * @module protection/application-header
 * The `APPLICATION` request header, `<Organisation>/<Application>/<Version>`, which says
 * who is calling. It is not a credential: a request with a well-formed header is
 * "attributed" (counted per application, not throttled); without one, or with a malformed
 * one, it is unattributed, and a malformed one earns a `Warning` response header saying why.
 */

/** Longest header value accepted, in characters. */
export const APPLICATION_HEADER_MAX_LENGTH = 200;

/** The form the header must take, as quoted in messages. */
const APPLICATION_HEADER_FORM = "<Organisation>/<Application>/<Version>";

/** A parsed header: attributed, or unattributed with the reason. */
export type ApplicationHeader =
  | {
      ok: true;
      organisation: string;
      application: string;
      version: string;
      /** `organisation/application/version` with the parts trimmed: the key counts use. */
      label: string;
    }
  | {
      ok: false;
      /** `missing` (no header, or a blank one) or `malformed` (present but not of the form). */
      kind: "missing" | "malformed";
      /** Why, in words fit for a `Warning` header; never echoes the value. */
      reason: string;
    };

/**
 * Parses the value of the `APPLICATION` header (`c.req.header("application")`).
 * Each part is trimmed and must be non-empty; exactly three parts; at most 200 characters;
 * no control characters.
 *
 * @example
 * parseApplicationHeader("Acme/Membership Sync/2.1") // { ok: true, organisation: "Acme", ... }
 * parseApplicationHeader("Acme/Sync") // { ok: false, kind: "malformed", reason: "... has 2 parts ..." }
 */
export function parseApplicationHeader(value: string | null | undefined): ApplicationHeader {
  if (value === null || value === undefined || value.trim() === "") {
    return { ok: false, kind: "missing", reason: `APPLICATION header missing; send APPLICATION: ${APPLICATION_HEADER_FORM}` };
  }
  if (value.length > APPLICATION_HEADER_MAX_LENGTH) {
    return _malformed(`is longer than ${APPLICATION_HEADER_MAX_LENGTH} characters`);
  }
  if (/[\u0000-\u001f\u007f]/.test(value)) return _malformed("contains control characters");
  const parts = value.split("/").map((p) => p.trim());
  if (parts.length !== 3) return _malformed(`has ${parts.length} part${parts.length === 1 ? "" : "s"} instead of 3`);
  const empty = parts.findIndex((p) => p === "");
  if (empty !== -1) return _malformed(`has an empty ${PART_NAMES[empty]} part`);
  const [organisation, application, version] = parts as [string, string, string];
  return { ok: true, organisation, application, version, label: parts.join("/") };
}

/**
 * The `Warning` header value for an unattributed request with a malformed header, or
 * undefined (attributed, or simply missing: the rate-limit headers already tell that story).
 * Uses warn-code 299 (miscellaneous persistent warning) per RFC 7234.
 *
 * @example
 * applicationWarning(parseApplicationHeader("x")) // '299 records-service "APPLICATION header ignored: ..."'
 */
export function applicationWarning(header: ApplicationHeader): string | undefined {
  if (header.ok || header.kind === "missing") return undefined;
  return `299 records-service "${header.reason.replace(/["\\]/g, "")}"`;
}

// --- internal ---

const PART_NAMES = ["Organisation", "Application", "Version"] as const;

function _malformed(why: string): ApplicationHeader {
  return {
    ok: false,
    kind: "malformed",
    reason: `APPLICATION header ignored: it ${why}; expected ${APPLICATION_HEADER_FORM}`,
  };
}
