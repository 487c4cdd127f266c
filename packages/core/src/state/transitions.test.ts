import { describe, expect, it } from "vitest";
import { RecordsError } from "../errors.js";
import { transition, TRANSITIONS, type FromState, type RecordOperation } from "./transitions.js";

const OPS: RecordOperation[] = ["create", "update", "delete", "restore", "obfuscate", "touch", "recalc", "attach_files"];
const STATES: FromState[] = [null, "updated", "deleted"];

describe("transition", () => {
  it.each([
    { from: null, op: "create", to: "updated" },
    { from: "updated", op: "update", to: "updated" },
    { from: "updated", op: "delete", to: "deleted" },
    { from: "deleted", op: "restore", to: "updated" },
    { from: "updated", op: "obfuscate", to: "updated" },
    { from: "deleted", op: "obfuscate", to: "deleted" },
    { from: "updated", op: "touch", to: "updated" },
    { from: "updated", op: "recalc", to: "updated" },
    { from: "deleted", op: "recalc", to: "deleted" },
    { from: "updated", op: "attach_files", to: "updated" },
  ] as const)("$from --$op--> $to", ({ from, op, to }) => {
    expect(transition(from, op)).toBe(to);
  });

  it("the table holds exactly the allowed moves", () => {
    expect(TRANSITIONS).toHaveLength(10);
  });

  it.each([
    { from: "updated", op: "restore", message: "cannot restore a record that is not deleted" },
    { from: "deleted", op: "update", message: "cannot update a deleted record" },
    { from: "deleted", op: "delete", message: "cannot delete a deleted record" },
    { from: "deleted", op: "touch", message: "cannot touch a deleted record" },
    { from: "deleted", op: "attach_files", message: "cannot attach files to a deleted record" },
    { from: "updated", op: "create", message: "cannot create a record that already exists" },
    { from: "deleted", op: "create", message: "cannot create a record that already exists" },
    { from: null, op: "update", message: "cannot update a record that does not exist" },
  ] as const)("refuses $op from $from: $message", ({ from, op, message }) => {
    try {
      transition(from, op);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(RecordsError);
      expect(e).toMatchObject({ code: "conflict", message });
      expect((e as RecordsError).status).toBe(409);
      expect((e as RecordsError).detail).toContain(op);
    }
  });

  it("refuses every pair not in the table with a 409", () => {
    for (const from of STATES) {
      for (const op of OPS) {
        const row = TRANSITIONS.find((r) => r.from === from && r.op === op);
        if (row) expect(transition(from, op)).toBe(row.to);
        else expect(() => transition(from, op)).toThrow(RecordsError);
      }
    }
  });
});
