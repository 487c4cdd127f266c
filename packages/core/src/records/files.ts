/**
 * @module records/files
 * Uploads: store the files and record their URLs in the named fields, in one change set.
 * A person has one file field, `photo` (replaced); other types take any field name, and
 * the URLs are appended to the field's list.
 */
import { badRequest } from "../errors.js";
import { FIELD_NAME_RE } from "../schema/input.js";
import { PERSON_FILE_FIELD } from "../schema/person.js";
import { transition } from "../state/transitions.js";
import type { StoredFile } from "../storage/types.js";
import { formatTimestamp } from "../time.js";
import { commit } from "./commit.js";
import { loadRecord } from "./guards.js";
import { revise, updateOf } from "./revise.js";
import type { EngineContext, FileUpload, FileUploadResult } from "./types.js";

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
 * Stores `files` on the record. A file aimed at a field that cannot hold files gets an entry
 * in `errors` (keyed by field) and is not stored; the others are. When none can be stored,
 * nothing is written.
 */
export async function attachFiles(
  ctx: EngineContext,
  flock: string,
  type: string,
  id: string,
  files: FileUpload[],
): Promise<FileUploadResult> {
  const before = await loadRecord(ctx, flock, type, id);
  const state = transition(before.state, "attach_files");
  if (files.length === 0) throw badRequest("no file", "send at least one multipart file part named after a file field");
  const now = formatTimestamp(ctx.clock.now());
  const errors: Record<string, string> = {};
  const updates: Record<string, string[]> = {};
  const stored: StoredFile[] = [];
  const data: Record<string, unknown> = { ...before.data };
  const lastPhoto = files.map((f) => f.field).lastIndexOf(PERSON_FILE_FIELD);
  files.forEach((upload, i) => {
    const refusal = _refusal(type, upload.field);
    if (refusal) {
      errors[upload.field] = refusal;
      return;
    }
    // A person holds one photo: of several uploads in one request, the last one wins.
    if (type === "person" && i !== lastPhoto) return;
    const file = _storedFile(ctx, before.flock, type, id, upload, now);
    const url = fileUrl(flock, file.id, file.filename);
    stored.push(file);
    if (type === "person") {
      data[upload.field] = url;
      updates[upload.field] = [url];
    } else {
      data[upload.field] = [..._asList(data[upload.field]), url];
      updates[upload.field] = [...(updates[upload.field] ?? []), url];
    }
  });
  if (stored.length === 0) return { errors, updates, record: before, files: [] };
  const after = revise(before, { data, state, now });
  await commit(ctx, { ...updateOf(before, after), files: stored });
  return { errors, updates, record: after, files: stored };
}

// --- internal ---

function _refusal(type: string, field: string): string | undefined {
  if (type === "person") {
    return field === PERSON_FILE_FIELD ? undefined : `'${field}' is not a file field of person; upload to '${PERSON_FILE_FIELD}'`;
  }
  return FIELD_NAME_RE.test(field)
    ? undefined
    : `'${field}' is not a valid field name (letters, digits and underscores, not starting with a digit)`;
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

/** An existing value as a list: null/absent is empty, a scalar becomes its only entry. */
function _asList(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
