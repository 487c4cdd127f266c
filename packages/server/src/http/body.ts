/**
 * @module http/body
 * Reading request bodies. Every unreadable body is a 400 naming what was wrong and what
 * is accepted; nothing here ever lets a parser's own exception reach the client.
 */
import { badRequest, type FileUpload } from "@records-service/core";
import type { Context } from "hono";

/**
 * Deepest nesting of arrays and objects accepted in a JSON body. Record data is shallow;
 * the bound keeps recursive code further in (comparison, storage) from running out of stack.
 */
export const MAX_JSON_DEPTH = 32;

/** How a request body is encoded, from its Content-Type. */
export type BodyKind = "json" | "form" | "multipart" | "none" | "other";

/**
 * The body kind. A body sent without a Content-Type is read as JSON, as clients that
 * forget the header mean it.
 */
export function bodyKind(c: Context): BodyKind {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type)) return "json";
  if (type === "application/x-www-form-urlencoded") return "form";
  if (type === "multipart/form-data") return "multipart";
  if (type === "") return "json";
  return "other";
}

/**
 * The body as a JSON object. A missing body, invalid JSON or any other JSON value
 * (array, string, null) is a 400.
 *
 * @example
 * const input = await readJsonObject(c); // { first_name: "Ada" }
 */
export async function readJsonObject(c: Context): Promise<Record<string, unknown>> {
  const value = await _readJson(c);
  if (value === undefined) throw badRequest("missing body", "send a JSON object as the request body");
  if (!_isPlainObject(value)) {
    throw badRequest("invalid body", `the body must be a JSON object, not ${_describe(value)}`);
  }
  return value;
}

/**
 * An optional JSON object body: undefined when the request has none (no bytes, or only
 * whitespace); otherwise as `readJsonObject`.
 */
export async function readOptionalJsonObject(c: Context): Promise<Record<string, unknown> | undefined> {
  const value = await _readJson(c);
  if (value === undefined) return undefined;
  if (!_isPlainObject(value)) {
    throw badRequest("invalid body", `the body must be a JSON object, not ${_describe(value)}`);
  }
  return value;
}

/**
 * Text fields of a JSON, form-encoded or multipart body, for small credential bodies.
 * Values that are not strings (numbers in JSON, file parts) are left out, so a required
 * field the caller mistyped reads as missing.
 */
export async function readFields(c: Context): Promise<Record<string, string>> {
  const kind = bodyKind(c);
  if (kind === "json") {
    const input = await readJsonObject(c);
    return Object.fromEntries(Object.entries(input).filter((e): e is [string, string] => typeof e[1] === "string"));
  }
  if (kind === "form" || kind === "multipart") {
    const form = await _parseForm(c);
    return Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => typeof e[1] === "string"));
  }
  throw unsupportedBody(c, "JSON, form-encoded or multipart");
}

/**
 * The file parts of a multipart body as uploads. A text part, or a body with no file
 * part, is a 400: file updates take only files; other fields are sent as JSON.
 */
export async function readFileUploads(c: Context): Promise<FileUpload[]> {
  const form = await _parseForm(c);
  const uploads: FileUpload[] = [];
  const textParts: string[] = [];
  for (const [field, value] of Object.entries(form)) {
    for (const part of Array.isArray(value) ? value : [value]) {
      if (typeof part === "string") {
        textParts.push(field);
        continue;
      }
      uploads.push({
        field,
        filename: part.name,
        contentType: part.type || "application/octet-stream",
        bytes: new Uint8Array(await part.arrayBuffer()),
      });
    }
  }
  if (textParts.length > 0) {
    throw badRequest(
      "text part in file upload",
      `multipart part(s) ${[...new Set(textParts)].map((f) => JSON.stringify(f)).join(", ")} are not files; ` +
        "a multipart update takes file parts only; send other fields as a JSON update",
    );
  }
  if (uploads.length === 0) throw badRequest("no file", "the multipart body holds no file part");
  return uploads;
}

/** The 400 for a body whose Content-Type the path does not read. */
export function unsupportedBody(c: Context, accepted: string): Error {
  const type = (c.req.header("content-type") ?? "").slice(0, 100);
  return badRequest("unsupported content type", `Content-Type ${JSON.stringify(type)} is not accepted here; send ${accepted}`);
}

// --- internal ---

async function _readJson(c: Context): Promise<unknown> {
  let text: string;
  try {
    text = await c.req.text();
  } catch {
    throw badRequest("unreadable body", "the request body could not be read");
  }
  if (text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const why = e instanceof SyntaxError ? e.message : "not JSON";
    throw badRequest("invalid JSON", `the body is not valid JSON (${why.slice(0, 200)})`);
  }
  _checkShape(value);
  return value;
}

/**
 * Refuses bodies nested deeper than `MAX_JSON_DEPTH`, and `__proto__` keys anywhere (they
 * are not field names, and plain assignment would turn them into a prototype). Iterative,
 * so the check itself cannot overflow the stack.
 */
function _checkShape(root: unknown): void {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== "object" || value === null) continue;
    if (depth > MAX_JSON_DEPTH) {
      throw badRequest("body too deeply nested", `JSON arrays and objects may be nested at most ${MAX_JSON_DEPTH} levels deep`);
    }
    for (const [k, v] of Object.entries(value)) {
      if (k === "__proto__") throw badRequest("invalid field name", '"__proto__" is not accepted as a key');
      stack.push([v, depth + 1]);
    }
  }
}

type _Form = Record<string, string | File | (string | File)[]>;

async function _parseForm(c: Context): Promise<_Form> {
  try {
    return (await c.req.parseBody({ all: true })) as _Form;
  } catch {
    throw badRequest("invalid form body", "the form or multipart body could not be parsed (check the boundary and encoding)");
  }
}

function _isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function _describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return `a ${typeof v}`;
}
