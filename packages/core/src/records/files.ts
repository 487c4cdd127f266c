/**
 * @module records/files
 * Uploads: store the files and record their URLs in the named fields, in one change set.
 * A person has one file field, `photo` (replaced); other types take any field name, and
 * the URLs are appended to the field's list. The fields an upload writes go through the
 * same update as a JSON body (`planUpdate`, or a task's `checkTaskPatch`), so every field
 * rule and bound answers alike for both.
 */
import { badRequest } from "../errors.js";
import { MAX_CONTENT_TYPE_LENGTH, MAX_FILE_NAME_LENGTH } from "../query/limits.js";
import { PERSON_FIELDS, PERSON_FILE_FIELD } from "../schema/person.js";
import { transition } from "../state/transitions.js";
import type { StoredFile } from "../model/file.js";
import type { StoredRecord } from "../model/record.js";
import { checkTaskPatch } from "../tasks/task-update.js";
import { TASK_TYPE } from "../tasks/types.js";
import { formatTimestamp } from "../time.js";
import { commit } from "./commit.js";
import { replanned } from "./replan.js";
import { updateOf } from "./revise.js";
import type { EngineContext, FileUpload, FileUploadResult } from "./types.js";
import { planUpdate } from "./update.js";

/**
 * The URL a stored file is served at.
 *
 * @example
 * fileUrl("demo", "0123456789abcdef01234567", "cv 2026.pdf") // "/files/v1/demo/0123456789abcdef01234567/cv%202026.pdf"
 */
export function fileUrl(flock: string, fileId: string, filename: string): string {
  return `/files/v1/${flock}/${fileId}/${encodeURIComponent(filename)}`;
}

/**
 * Stores `files` on the record. The fields they write are an update like a JSON one: a
 * field JSON could not write (malformed or reserved name, unknown or system-generated person
 * field, read-only data event field, any task field, a list past its bound) is the same 400
 * and nothing is stored. A person field that JSON may write but that holds no file gets an entry in
 * `errors` (the spec's answer) and its file is not stored; when no file is left, nothing
 * is written. Linear in the number of files.
 */
export async function attachFiles(
  ctx: EngineContext,
  flock: string,
  type: string,
  id: string,
  files: FileUpload[],
): Promise<FileUploadResult> {
  return replanned(ctx, flock, type, id, (before) => _attach(ctx, before, files));
}

// --- internal ---

/** One attempt of `attachFiles` on the record as read. */
async function _attach(ctx: EngineContext, before: StoredRecord, files: FileUpload[]): Promise<FileUploadResult> {
  const { flock, type, id } = before;
  transition(before.state, "attach_files");
  if (files.length === 0) throw badRequest("no file", "send at least one multipart file part named after a file field");
  files.forEach(_checkUpload);
  const now = formatTimestamp(ctx.clock.now());
  const errors = new Map<string, string>();
  const byField = new Map<string, FileUpload[]>();
  for (const upload of files) {
    const refusal = type === "person" ? _personRefusal(upload.field) : undefined;
    if (refusal) {
      errors.set(upload.field, refusal);
      continue;
    }
    const list = byField.get(upload.field);
    // A person holds one photo: of several in one request, the last one wins.
    if (!list || type === "person") byField.set(upload.field, [upload]);
    else list.push(upload);
  }
  const stored: StoredFile[] = [];
  const updates = new Map<string, string[]>();
  const patch = new Map<string, unknown>();
  for (const [field, uploads] of byField) {
    const urls = uploads.map((upload) => {
      const file = _storedFile(ctx, before.flock, type, id, upload, now);
      stored.push(file);
      return fileUrl(flock, file.id, file.filename);
    });
    updates.set(field, urls);
    patch.set(field, type === "person" ? urls[0] : [..._asList(before.data[field], field, before.data), ...urls]);
  }
  const result = { errors: Object.fromEntries(errors), updates: Object.fromEntries(updates) };
  if (stored.length === 0) return { ...result, record: before, files: [] };
  const fields = Object.fromEntries(patch);
  if (type === TASK_TYPE) checkTaskPatch(fields);
  const { next } = planUpdate(before, fields, now);
  await commit(ctx, { ...updateOf(before, next), files: stored });
  return { ...result, record: next, files: stored };
}

/**
 * Why a person field cannot take a file, for `errors`: a field JSON may write that holds no
 * file. Undefined for `photo`, and for names JSON refuses (no person field, or a
 * system-generated one): the update refuses those with JSON's own 400.
 */
function _personRefusal(field: string): string | undefined {
  if (field === PERSON_FILE_FIELD || !Object.hasOwn(PERSON_FIELDS, field) || PERSON_FIELDS[field] === "system") return undefined;
  return `'${field}' is not a file field of person; upload to '${PERSON_FILE_FIELD}'`;
}

/** Throws 400 for a file name or content type past its bound (they are stored and served). */
function _checkUpload(upload: FileUpload): void {
  if (upload.filename.length > MAX_FILE_NAME_LENGTH) {
    throw badRequest(
      "file name too long",
      `a file name is at most ${MAX_FILE_NAME_LENGTH} characters; ${JSON.stringify(upload.filename.slice(0, 40))}... has ${upload.filename.length}`,
    );
  }
  if (upload.contentType.length > MAX_CONTENT_TYPE_LENGTH) {
    throw badRequest("content type too long", `a file's content type is at most ${MAX_CONTENT_TYPE_LENGTH} characters`);
  }
}

function _storedFile(
  ctx: EngineContext,
  flock: string,
  type: string,
  recordId: string,
  upload: FileUpload,
  now: string,
): StoredFile {
  return {
    id: ctx.ids(),
    flock,
    recordType: type,
    recordId,
    field: upload.field,
    filename: upload.filename.trim() || "file",
    contentType: upload.contentType.trim() || "application/octet-stream",
    bytes: upload.bytes,
    created: now,
  };
}

/**
 * The record's value of `field` as a list: absent (not an own field) or null is empty, a
 * scalar becomes its only entry.
 */
function _asList(value: unknown, field: string, data: Record<string, unknown>): unknown[] {
  if (!Object.hasOwn(data, field) || value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
