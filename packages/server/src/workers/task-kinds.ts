/**
 * @module workers/task-kinds
 * The task kinds this server runs: core's defaults (bulk actions, recalcs, purges) and the
 * segments gateway's (deleting a segment's members, exporting them as XLSX). The routes that
 * queue a task and the task worker use this one registry, so a kind queued is a kind run.
 */
import { createTaskRegistry, DEFAULT_TASK_KINDS, type TaskKind, type TaskRegistry } from "@records-service/core";
import { segmentDeleteTask } from "../gateway/segments/delete-task.js";
import { segmentExportTask } from "../gateway/segments/export-task.js";

/** Every kind the server runs, core's first. */
const SERVER_TASK_KINDS: readonly TaskKind[] = [...DEFAULT_TASK_KINDS, segmentDeleteTask, segmentExportTask];

/** The registry of `SERVER_TASK_KINDS` (kinds hold no state, so one per process is right with many processes). */
export const serverTaskRegistry: TaskRegistry = createTaskRegistry(SERVER_TASK_KINDS);
