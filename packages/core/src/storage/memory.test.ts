import { createMemoryStorage } from "./memory.js";
import { runStorageTests } from "./conformance.js";

runStorageTests({ name: "memory", create: createMemoryStorage });
