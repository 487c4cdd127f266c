import { createFakeClock, createMemoryStorage, createRecordEngine } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { cardKey } from "../config/keys.js";
import { verifyCardSignature } from "../derived/card-signature.js";
import { memberCardUrl, storedSecret } from "../derived/card-url.js";
import { FLAG_DEFAULTS } from "../config/schema.js";
import { parseCommand, UsageError } from "./args.js";

describe("parseCommand card-url", () => {
  it.each([
    {
      argv: ["card-url", "demo", "0123456789abcdef01234567"],
      expected: { db: FLAG_DEFAULTS.db, baseUrl: "http://127.0.0.1:8080" },
    },
    {
      argv: ["card-url", "demo", "0123456789abcdef01234567", "--db", "x.db", "--base-url", "https://records.example.org/"],
      expected: { db: "x.db", baseUrl: "https://records.example.org/" },
    },
  ])("parses $argv", ({ argv, expected }) => {
    expect(parseCommand(argv, {})).toEqual({ kind: "card-url", flock: "demo", memberId: "0123456789abcdef01234567", ...expected });
  });

  it("has help", () => {
    expect(parseCommand(["card-url", "--help"], {})).toMatchObject({ kind: "help", text: expect.stringContaining("card-url FLOCK MEMBER_ID") });
  });

  it.each([
    [["card-url"]],
    [["card-url", "demo"]],
    [["card-url", "demo", "0123456789ABCDEF01234567"]],
    [["card-url", "demo", "0123456789abcdef01234567", "extra"]],
    [["card-url", "demo", "0123456789abcdef01234567", "--base-url", "records.example.org"]],
  ])("refuses %j", (argv) => {
    expect(() => parseCommand(argv, {})).toThrow(UsageError);
  });
});

describe("memberCardUrl", () => {
  it("signs with the stored secret, creating it once when the database has none", async () => {
    const storage = createMemoryStorage();
    const engine = createRecordEngine({ storage, clock: createFakeClock() });
    await storage.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-15T10:00:00.000000" });
    const member = await engine.create("demo", "member", { membership_number: "1" });
    const url = new URL(await memberCardUrl(storage, { flock: "demo", memberId: member.id, baseUrl: "https://r.example.org/base/" }));
    expect(url.href.startsWith(`https://r.example.org/base/api/v2/demo/member/${member.id}/card/?signature=`)).toBe(true);
    const secret = await storedSecret(storage);
    expect(await storedSecret(storage)).toBe(secret);
    expect(verifyCardSignature(cardKey(secret), "demo", member.id, url.searchParams.get("signature") ?? undefined)).toBe("ok");
    await engine.delete("demo", "member", member.id);
    await expect(memberCardUrl(storage, { flock: "demo", memberId: member.id, baseUrl: "https://r.example.org" })).rejects.toThrow("unknown member");
  });
});
