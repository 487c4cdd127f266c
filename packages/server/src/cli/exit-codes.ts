/**
 * @module cli/exit-codes
 * The CLI's exit codes, in one place.
 */

/** Done. */
export const EXIT_OK = 0;
/** The command was understood but failed: bad config, unknown flock, port in use, ... */
export const EXIT_FAILED = 1;
/** Bad command line: unknown command or flag, missing or bad value. */
export const EXIT_USAGE = 2;
