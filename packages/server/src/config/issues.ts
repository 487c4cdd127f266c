/**
 * @module config/issues
 * Turns what is wrong with a config file into one line that names the key, e.g.
 * `config: unknown key "flocks[0].nmae" (accepted: identifier, name)`.
 */
import type * as v from "valibot";

/** A config file the server refuses to start with. `message` is the whole one-line reason. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** `["flocks", 0, "name"]` → `flocks[0].name`. */
export function keyPath(path: readonly (string | number)[]): string {
  return path.reduce<string>((acc, k) => (typeof k === "number" ? `${acc}[${k}]` : acc ? `${acc}.${k}` : k), "");
}

/**
 * One line for a valibot issue of the config schema. `root` is the schema, used to list the
 * keys accepted where an unknown one was found.
 */
export function describeIssue(issue: v.BaseIssue<unknown>, root: unknown): string {
  const path = (issue.path ?? []).map((p) => p.key as string | number);
  if (path.length === 0) return `config: expected a JSON object at the top level, got ${issue.received}`;
  const at = `"${keyPath(path)}"`;
  if (issue.kind === "schema" && issue.expected === "never") {
    const accepted = _entriesAt(root, path.slice(0, -1));
    return `config: unknown key ${at}` + (accepted ? ` (accepted: ${accepted.join(", ")})` : "");
  }
  if (issue.kind === "schema" && issue.received === "undefined") return `config: ${at} is required`;
  if (issue.kind === "schema" && !_isCustom(issue.message)) {
    return `config: ${at} must be ${_article(issue.expected ?? "another type")}, got ${issue.received}`;
  }
  return `config: ${at} ${issue.message}`;
}

// --- internal ---

/** Walks the schema along `path` to the object found there and lists its keys. */
function _entriesAt(schema: unknown, path: readonly (string | number)[]): string[] | undefined {
  let s = _unwrap(schema);
  for (const k of path) {
    if (typeof k === "number") s = _unwrap(s?.item);
    else s = _unwrap(s?.entries?.[k]);
  }
  return s?.entries ? Object.keys(s.entries) : undefined;
}

interface _Node {
  wrapped?: unknown;
  item?: unknown;
  entries?: Record<string, unknown>;
}

function _unwrap(schema: unknown): _Node | undefined {
  let s = schema as _Node | undefined;
  while (s?.wrapped) s = s.wrapped as _Node;
  return s;
}

/** valibot's own messages start with "Invalid"; ours say what is accepted. */
function _isCustom(message: string): boolean {
  return !message.startsWith("Invalid ");
}

function _article(expected: string): string {
  if (expected === "Array") return "a list";
  if (expected === "Object") return "an object";
  if (/^(string|number|boolean)$/.test(expected)) return `a ${expected}`;
  return expected;
}
