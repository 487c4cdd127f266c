/**
 * @module statement-names
 * Names for statements run without one (the compiled list queries, whose text follows the
 * query's shape), so that each connection parses and plans a text once and PostgreSQL may
 * keep a generic plan of it, instead of planning it again on every request: planning a
 * list's page-and-total statement costs more than running it (1.2 ms against 0.5 ms for
 * a `last_name=` page of 10,000 persons, docs/performance.md). The first `max` distinct
 * texts of a process get a name; later ones run unnamed, as before, so a stream of
 * distinct texts cannot fill every connection with prepared statements. Only statements
 * PostgreSQL plans (SELECT, WITH, INSERT, UPDATE, DELETE) are named. A name is drawn from
 * the text's hash, not from the order texts were seen: two copies of this module sharing a
 * pool (a connection knows a name once) give one text the same name.
 */
import { createHash } from "node:crypto";

/** The name of `text`'s prepared statement, or undefined to run it unnamed. */
export type StatementNames = (text: string) => string | undefined;

/** Distinct texts named per process (each connection prepares those it runs). */
const NAMED_TEXTS_MAX = 128;

/**
 * Names texts `records_auto_<hash>` (96 bits of the text's SHA-256), the first `max` seen.
 *
 * @example
 * const names = createStatementNames();
 * names("SELECT 1") // "records_auto_e004ebd5b5532a4b85984a62", and again for the same text
 */
export function createStatementNames(max = NAMED_TEXTS_MAX): StatementNames {
  const names = new Map<string, string>();
  return (text) => {
    let name = names.get(text);
    if (name === undefined && names.size < max && _PLANNED.test(text)) {
      names.set(text, (name = `records_auto_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`));
    }
    return name;
  };
}

// --- internal ---

const _PLANNED = /^\s*(SELECT|WITH|INSERT|UPDATE|DELETE)\b/i;
