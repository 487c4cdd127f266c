/**
 * @module @records-service/console
 * Where the built console is: the server serves this folder at `/` and `/console/`.
 */
import { fileURLToPath } from "node:url";

/** Absolute path of the built console (`dist/`, made by `vite build` in the root `prepare`). */
export const consoleDist = fileURLToPath(new URL("./dist/", import.meta.url));
