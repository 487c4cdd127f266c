import { createFakeClock, createMemoryStorage } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { verifyPassword } from "../auth/passwords.js";
import { seedIfEmpty } from "./bootstrap.js";

describe("seedIfEmpty", () => {
  const clock = createFakeClock("2026-01-15T10:00:00.000Z");

  it("creates flock demo and an admin for every flock on an empty database, once", async () => {
    const storage = createMemoryStorage();
    const created = await seedIfEmpty(storage, clock);
    expect(created).toMatchObject({ flock: "demo", username: "admin" });
    expect(created!.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(await storage.listFlocks()).toEqual([{ identifier: "demo", name: "Demo", created: "2026-01-15T10:00:00.000000" }]);
    const admin = await storage.getUser("admin");
    expect(admin).toMatchObject({ flocks: ["*"], role: "core" });
    expect(await verifyPassword(created!.password, admin!.passwordHash)).toBe(true);
    expect(await seedIfEmpty(storage, clock)).toBeUndefined();
  });

  it("does nothing when a flock exists", async () => {
    const storage = createMemoryStorage();
    await storage.createFlock({ identifier: "club", name: "Club", created: "2026-01-01T00:00:00.000000" });
    expect(await seedIfEmpty(storage, clock)).toBeUndefined();
    expect(await storage.getUser("admin")).toBeUndefined();
  });

  it("does nothing when an admin exists", async () => {
    const storage = createMemoryStorage();
    await storage.putUser({ username: "admin", passwordHash: "x", flocks: ["*"], role: "core", created: "2026-01-01T00:00:00.000000" });
    expect(await seedIfEmpty(storage, clock)).toBeUndefined();
    expect(await storage.listFlocks()).toEqual([]);
  });

  it("gives every first start its own password", async () => {
    const a = await seedIfEmpty(createMemoryStorage(), clock);
    const b = await seedIfEmpty(createMemoryStorage(), clock);
    expect(a!.password).not.toBe(b!.password);
  });
});
