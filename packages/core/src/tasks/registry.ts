/**
 * @module tasks/registry
 * The task kinds a server runs, by name: `bulk_action`, `recalc` and `purge_events` by
 * default; other kinds are added with `register` or by listing them in
 * `createTaskRegistry`'s argument.
 */
import { badRequest } from "../errors.js";
import { bulkActionTask } from "./bulk-kind.js";
import { purgeEventsTask } from "./purge-kind.js";
import { recalcTask } from "./recalc-kind.js";
import type { TaskKind } from "./types.js";

/** The kinds by name. */
export interface TaskRegistry {
  /** The kind, or undefined when none has that name. */
  get(name: string): TaskKind | undefined;
  /** The kind; 400 naming the known kinds when none has that name. */
  require(name: string): TaskKind;
  /** Adds a kind; throws when the name is taken (two kinds must not share records). */
  register(kind: TaskKind): void;
  /** The names, in registration order. */
  names(): string[];
}

/** The kinds every registry starts with unless told otherwise. */
export const DEFAULT_TASK_KINDS: readonly TaskKind[] = [bulkActionTask, recalcTask, purgeEventsTask];

/**
 * A registry holding `kinds` (default: `DEFAULT_TASK_KINDS`).
 *
 * @example
 * const tasks = createTaskRegistry();
 * tasks.register(myKind);
 */
export function createTaskRegistry(kinds: readonly TaskKind[] = DEFAULT_TASK_KINDS): TaskRegistry {
  const byName = new Map<string, TaskKind>();
  const registry: TaskRegistry = {
    get: (name) => byName.get(name),
    require(name) {
      const kind = byName.get(name);
      if (!kind) throw badRequest("unknown task kind", `${JSON.stringify(name)} is not a task kind; known: ${[...byName.keys()].join(", ")}`);
      return kind;
    },
    register(kind) {
      if (byName.has(kind.name)) throw new Error(`task kind ${JSON.stringify(kind.name)} is registered twice`);
      byName.set(kind.name, kind);
    },
    names: () => [...byName.keys()],
  };
  for (const kind of kinds) registry.register(kind);
  return registry;
}
