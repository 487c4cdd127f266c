/**
 * @module storage/file-store
 * Uploaded files. They are written and removed with their record by `RecordStore.apply`
 * (`ChangeSet.files`, `ChangeSet.removeFilesOf`); this role only reads them.
 */
import type { StoredFile } from "../model/file.js";

/** Reading uploaded files. */
export interface FileStore {
  /** The file with this id in `flock` (a file of another flock is not found), or undefined. */
  getFile(flock: string, id: string): Promise<StoredFile | undefined>;
}
