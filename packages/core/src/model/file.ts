/**
 * @module model/file
 * An uploaded file as stored, and the record it belongs to.
 */

/** A file attached to a record (uploaded through multipart). */
export interface StoredFile {
  /** 24-hex id, used in the file URL. */
  id: string;
  flock: string;
  recordType: string;
  recordId: string;
  field: string;
  filename: string;
  contentType: string;
  bytes: Uint8Array;
  created: string;
}

/** The record a file belongs to. */
export interface FileOwner {
  flock: string;
  type: string;
  id: string;
}
