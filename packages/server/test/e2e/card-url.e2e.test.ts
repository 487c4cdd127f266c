/**
 * End to end: `records-service card-url` prints a signed card link that the running server
 * (same database) accepts, and the flock's webhook key (`webhook-secret`) cannot forge one;
 * bad arguments exit 2, an unknown member or flock exits 1.
 */
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killAll, runCliToEnd, startCli } from "./spawn-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "records-card-url-"));

afterAll(() => {
  killAll();
  rmSync(tmp, { recursive: true, force: true });
});

describe("records-service card-url", () => {
  it("prints a link the server opens, signed with the database's secret", async () => {
    const db = join(tmp, "records.db");
    const config = join(tmp, "config.json");
    writeFileSync(
      config,
      JSON.stringify({ flocks: [{ identifier: "demo", name: "Demo Society" }], users: [{ username: "staff@example.org", password: "pw for staff", flocks: ["demo"] }] }),
    );
    const p = startCli(["serve", "--port", "0", "--db", db, "--config", config, "--quiet"]);
    const url = /listening on (http:\/\/\S+)/.exec(await p.line(/listening on http:\/\//))![1]!;
    const post = async (path: string, body: unknown, key?: string) => {
      const res = await fetch(`${url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", application: "e2e/card-url/1", ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Record<string, any>;
    };
    const key = (await post("/api/v1/auth/", { username: "staff@example.org", password: "pw for staff" })).api_key as string;
    const person = ((await post("/api/v1/demo/person/", { first_name: "Ada", last_name: "Lovelace" }, key)).uri as string).split("/")[3]!;
    const member = ((await post("/api/v1/demo/member/", { member: `/demo/person/${person}/`, membership_number: "7" }, key)).uri as string).split("/")[3]!;

    const printed = await runCliToEnd(["card-url", "demo", member, "--db", db, "--base-url", url]);
    expect(printed).toMatchObject({ code: 0, stderr: [] });
    expect(printed.stdout).toHaveLength(1);
    const link = printed.stdout[0]!;
    expect(link).toMatch(new RegExp(`^${url}/api/v2/demo/member/${member}/card/\\?signature=[0-9a-f]{64}$`));
    const card = await fetch(link);
    expect(card.status).toBe(200);
    expect(await card.text()).toContain("Ada Lovelace");

    // Issue 15: a flock's webhook receiver holds `webhook-secret`'s key; it cannot sign card links.
    const webhookKey = await runCliToEnd(["webhook-secret", "demo", "--db", db]);
    expect(webhookKey).toMatchObject({ code: 0, stderr: [] });
    const keyBytes = Buffer.from(webhookKey.stdout[0]!.replace(/^whsec_/, ""), "base64");
    const forged = createHmac("sha256", keyBytes).update(`demo/member/${member}`).digest("hex");
    expect((await fetch(`${url}/api/v2/demo/member/${member}/card/?signature=${forged}`)).status).toBe(401);
    const noSuchFlock = await runCliToEnd(["webhook-secret", "ghost", "--db", db]);
    expect(noSuchFlock).toMatchObject({ code: 1, stdout: [] });
    expect(noSuchFlock.stderr).toHaveLength(1);

    const unknown = await runCliToEnd(["card-url", "demo", "0123456789abcdef01234567", "--db", db]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.join("\n")).toContain("no member");
    const noFlock = await runCliToEnd(["card-url", "ghost", member, "--db", db]);
    expect(noFlock.code).toBe(1);

    p.child.kill("SIGTERM");
    expect(await p.exited()).toBe(0);
  });

  it.each([
    { name: "no member id", args: ["card-url", "demo"] },
    { name: "a malformed member id", args: ["card-url", "demo", "xyz"] },
    { name: "a bad flock", args: ["card-url", "Demo!", "0123456789abcdef01234567"] },
    { name: "a base URL that is not http(s)", args: ["card-url", "demo", "0123456789abcdef01234567", "--base-url", "ftp://x"] },
    { name: "an unknown flag", args: ["card-url", "demo", "0123456789abcdef01234567", "--secret", "x"] },
    { name: "webhook-secret without a flock", args: ["webhook-secret"] },
    { name: "webhook-secret with a bad flock", args: ["webhook-secret", "Demo!"] },
  ])("exits 2 with one line on stderr for $name", async ({ args }) => {
    const r = await runCliToEnd([...args, "--db", join(tmp, "unused.db")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toHaveLength(1);
  });
});
