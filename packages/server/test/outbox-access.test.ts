import { formatTimestamp } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { createTestApp, KEYS } from "./helpers/app.js";
import { hashToken } from "../src/auth/tokens.js";

describe("GET /api/v1/{flock}/outbox/: who may read it", () => {
  it("tells a user who lists every flock by name that it needs an administrator key (\"*\")", async () => {
    const t = await createTestApp();
    const now = formatTimestamp(t.clock.now());
    const key = "9".repeat(64);
    await t.storage.putUser({ username: "dora", passwordHash: "x", flocks: ["alpha", "beta"], role: "core", created: now });
    await t.storage.putApiKey({ tokenHash: hashToken(key), username: "dora", created: now, expires: null });
    for (const k of [key, KEYS.alice]) {
      const res = await t.call("GET", "/api/v1/alpha/outbox/", { key: k });
      expect(res.status).toBe(403);
      const body = (await res.json()) as { error: string; error_detail: string };
      expect(body.error).toBe("forbidden");
      expect(body.error_detail).toContain('administrator keys only: a user whose flocks are ["*"]');
      expect(body.error_detail).not.toContain("users with every flock");
    }
    expect((await t.call("GET", "/api/v1/alpha/outbox/", { key: KEYS.admin })).status).toBe(200);
  });
});
