import { createMemoryStorage } from "./memory.js";
import { runStorageTests } from "../testing/storage-suite.js";

runStorageTests({ name: "memory", create: createMemoryStorage });
