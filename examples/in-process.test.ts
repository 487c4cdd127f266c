import { describe, expect, it } from "vitest";
import { main } from "./in-process.js";

describe("examples/in-process", () => {
  it("runs the record life cycle in-process and prints each step", async () => {
    const lines: string[] = [];
    const result = await main((line) => lines.push(line));
    expect(result.vips).toEqual(["Ada Lovelace", "Mary Somerville"]);
    expect(result.changed).toMatchObject({ known_as: "Countess of Lovelace", title: "Countess" });
    expect(result.changed).toHaveProperty("formatted_name");
    expect(result.listedAfterDelete).toBe(2);
    expect(result.listedWithDeleted).toBe(3);
    expect(result.stateAfterRestore).toBe("updated");
    expect(result.either).toHaveLength(2);
    expect(result.either.at(-1)).toBe("Charles Babbage");
    expect(lines).toHaveLength(5);
    expect(lines[1]).toBe("VIPs created since last month: Ada Lovelace, Mary Somerville");
  });
});
