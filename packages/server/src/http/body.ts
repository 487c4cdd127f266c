/**
 * @module http/body
 * Reading request bodies. Every unreadable body is a 400 naming what was wrong and what
 * is accepted; nothing here ever lets a parser's own exception reach the client. Form and
 * multipart bodies are read into an ordered list of parts (never an object keyed by part
 * names), stopping at `MAX_BODY_PARTS`; JSON texts are bounded before they are parsed.
 */
import { badRequest, checkReservedFieldNames, type FileUpload } from "@records-service/core";
import type { Context } from "hono";
import type { AppEnv } from "./env.js";
import { checkJsonText } from "./json-scan.js";
import { MAX_BODY_PARTS } from "./limits.js";
import { multipartBoundary, parseMultipart, type MultipartPart } from "./multipart.js";

/** How a request body is encoded, from its Content-Type. */
export type BodyKind = "json" | "form" | "multipart" | "none" | "other";

/**
 * The body kind. A body sent without a Content-Type is read as JSON, as clients that
 * forget the header mean it.
 */
export function bodyKind(c: Context<AppEnv>): BodyKind {
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
export async function readJsonObject(c: Context<AppEnv>): Promise<Record<string, unknown>> {
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
export async function readOptionalJsonObject(c: Context<AppEnv>): Promise<Record<string, unknown> | undefined> {
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
export async function readFields(c: Context<AppEnv>): Promise<Record<string, string>> {
  const kind = bodyKind(c);
  const fields: Record<string, string> = Object.create(null);
  if (kind === "json") {
    for (const [name, value] of Object.entries(await readJsonObject(c))) if (typeof value === "string") fields[name] = value;
    return fields;
  }
  if (kind === "form" || kind === "multipart") {
    // The last of repeated names wins, as in JSON.
    for (const [name, value] of await _parseForm(c, kind)) if (typeof value === "string") fields[name] = value;
    return fields;
  }
  throw unsupportedBody(c, "JSON, form-encoded or multipart");
}

/**
 * The file parts of a multipart body as uploads, in body order. A text part, or a body with
 * no file part, is a 400: file updates take only files; other fields are sent as JSON.
 */
export async function readFileUploads(c: Context<AppEnv>): Promise<FileUpload[]> {
  const uploads: FileUpload[] = [];
  const textParts = new Set<string>();
  for (const [field, part] of await _parseForm(c, "multipart")) {
    if (typeof part === "string") {
      textParts.add(field);
      continue;
    }
    uploads.push({ field, filename: part.filename ?? "", contentType: part.contentType || "application/octet-stream", bytes: part.body });
  }
  if (textParts.size > 0) {
    throw badRequest(
      "text part in file upload",
      `multipart part(s) ${[...textParts].slice(0, 10).map((f) => JSON.stringify(f.slice(0, 60))).join(", ")} are not files; ` +
        "a multipart update takes file parts only; send other fields as a JSON update",
    );
  }
  if (uploads.length === 0) throw badRequest("no file", "the multipart body holds no file part");
  return uploads;
}

/**
 * The request body's bytes: as the body limit buffered them (no copy), else read once.
 *
 * @example
 * const bytes = await readBodyBytes(c); // Uint8Array, empty for no body
 */
export async function readBodyBytes(c: Context<AppEnv>): Promise<Uint8Array> {
  const buffered = c.get("rawBody");
  if (buffered) return buffered;
  try {
    return new Uint8Array(await c.req.arrayBuffer());
  } catch {
    throw badRequest("unreadable body", "the request body could not be read");
  }
}

/** The 400 for a body whose Content-Type the path does not read. */
export function unsupportedBody(c: Context<AppEnv>, accepted: string): Error {
  const type = (c.req.header("content-type") ?? "").slice(0, 100);
  return badRequest("unsupported content type", `Content-Type ${JSON.stringify(type)} is not accepted here; send ${accepted}`);
}

// --- internal ---

async function _readJson(c: Context<AppEnv>): Promise<unknown> {
  const text = _utf8.decode(await readBodyBytes(c));
  if (text.trim() === "") return undefined;
  checkJsonText(text);
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
 * Refuses `__proto__` keys (they are not field names, and plain assignment would turn them
 * into a prototype): at the top level with core's own `reserved field name` answer, as an
 * upload part of that name gets; nested, as a key. Depth and size were bounded before
 * parsing. Iterative, so the check itself cannot overflow the stack.
 */
function _checkShape(root: unknown): void {
  if (typeof root === "object" && root !== null && Object.hasOwn(root, "__proto__")) checkReservedFieldNames(Object.keys(root));
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== "object" || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
      continue;
    }
    for (const key of Object.keys(value)) {
      if (key === "__proto__") throw badRequest("invalid field name", '"__proto__" is not accepted as a key');
      stack.push((value as Record<string, unknown>)[key]);
    }
  }
}

type _Part = [name: string, value: string | MultipartPart];

/**
 * The parts of a form-encoded or multipart body, in order: a text field's value as text, a
 * file as its part. Both readers stop at `MAX_BODY_PARTS` before doing more work.
 */
async function _parseForm(c: Context<AppEnv>, kind: "form" | "multipart"): Promise<_Part[]> {
  const bytes = await readBodyBytes(c);
  if (kind === "multipart") {
    const parts = parseMultipart(bytes, multipartBoundary(c.req.header("content-type") ?? ""), MAX_BODY_PARTS);
    return parts.map((p) => [p.name, p.filename === undefined ? _utf8.decode(p.body) : p]);
  }
  const text = _utf8.decode(bytes);
  let fields = 1;
  for (let at = text.indexOf("&"); at >= 0; at = text.indexOf("&", at + 1)) fields += 1;
  if (fields > MAX_BODY_PARTS) {
    throw badRequest("too many parts", `a form-encoded body holds at most ${MAX_BODY_PARTS} fields (MAX_BODY_PARTS); this one has ${fields}`);
  }
  return [...new URLSearchParams(text)];
}

const _utf8 = new TextDecoder();

function _isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function _describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return `a ${typeof v}`;
}
