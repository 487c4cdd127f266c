/**
 * @module gateway/segments/view-contexts
 * The closed list of view contexts (spec v2-gateway 7): the words a segment's `view_context`
 * may hold and `GET /segments/v2/{flock}/{view_context}` accepts.
 */

/** The view contexts, as the hosted description lists them. */
export const VIEW_CONTEXTS: readonly string[] = [
  "comments",
  "crm",
  "documents",
  "events",
  "forms",
  "giving",
  "membership",
  "minimal_membership_directory",
  "reservations",
  "teams",
  "vehicles",
];

/** The fixed words of the segments gateway, never taken for a view context. */
export const FIXED_SEGMENT_WORDS: readonly string[] = ["all", "find", "trees", "create", "fieldset"];
