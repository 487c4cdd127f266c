/**
 * @module backup/names
 * Backup files are named by the UTC second their snapshot was taken,
 * `records-2026-11-28T05-00-00Z.db` (a `-N` suffix when that name is taken), so they sort
 * by time and say when they are from; pruning keeps the newest N of these names and never
 * touches another file in the folder.
 */
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const NAME_RE = /^records-(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d)Z(?:-(\d+))?\.db$/;

/**
 * The file name of a backup taken at `at` (`n` > 0: the n-th other backup in that second).
 *
 * @example
 * backupFileName(new Date("2026-11-28T05:00:00.250Z")) // "records-2026-11-28T05-00-00Z.db"
 */
export function backupFileName(at: Date, n = 0): string {
  const stamp = at.toISOString().slice(0, 19).replace(/:/g, "-");
  return `records-${stamp}Z${n > 0 ? `-${n}` : ""}.db`;
}

/**
 * The backups in `dir`, oldest first (other files are left out).
 *
 * @example
 * listBackups("./backups") // ["records-2026-11-27T05-00-00Z.db", "records-2026-11-28T05-00-00Z.db"]
 */
export function listBackups(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  return names
    .map((name) => ({ name, m: NAME_RE.exec(name) }))
    .filter((x): x is { name: string; m: RegExpExecArray } => x.m !== null)
    .sort((a, b) => (a.m[1]! < b.m[1]! ? -1 : a.m[1]! > b.m[1]! ? 1 : Number(a.m[2] ?? 0) - Number(b.m[2] ?? 0)))
    .map((x) => x.name);
}

/**
 * Removes all but the newest `keep` backups of `dir`; returns the names removed.
 *
 * @example
 * pruneBackups("./backups", 7) // ["records-2026-11-20T05-00-00Z.db"]
 */
export function pruneBackups(dir: string, keep: number): string[] {
  const all = listBackups(dir);
  const removed = all.slice(0, Math.max(0, all.length - keep));
  for (const name of removed) rmSync(join(dir, name), { force: true });
  return removed;
}

/** A name in `dir` for a backup taken at `at` that no file has yet. */
export function freeBackupName(dir: string, at: Date): string {
  const taken = new Set(listBackups(dir));
  for (let n = 0; ; n++) {
    const name = backupFileName(at, n);
    if (!taken.has(name)) return name;
  }
}
