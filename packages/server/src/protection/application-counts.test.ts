import { createFakeClock } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { createApplicationCounts, OTHER_APPLICATIONS } from "./application-counts.js";

describe("createApplicationCounts", () => {
  it("counts per label and unattributed, most requests first, ties by name", () => {
    const clock = createFakeClock("2026-01-15T10:00:00Z");
    const counts = createApplicationCounts({ clock });
    counts.record("b/app/1");
    clock.advance(1500);
    counts.record("a/app/1");
    counts.record(null);
    counts.record("c/app/1");
    counts.record("c/app/1");
    expect(counts.snapshot()).toEqual({
      since: "2026-01-15T10:00:00.000000",
      total: 5,
      unattributed: 1,
      applications: [
        { application: "c/app/1", requests: 2, last_seen: "2026-01-15T10:00:01.500000" },
        { application: "a/app/1", requests: 1, last_seen: "2026-01-15T10:00:01.500000" },
        { application: "b/app/1", requests: 1, last_seen: "2026-01-15T10:00:00.000000" },
      ],
    });
  });

  it("counts labels beyond the cap together, so memory stays bounded", () => {
    const counts = createApplicationCounts({ clock: createFakeClock(), maxLabels: 2 });
    for (const label of ["x/1/1", "y/1/1", "z/1/1", "w/1/1", "x/1/1"]) counts.record(label);
    const apps = counts.snapshot().applications.map((a) => [a.application, a.requests]);
    expect(apps).toEqual([
      [OTHER_APPLICATIONS, 2],
      ["x/1/1", 2],
      ["y/1/1", 1],
    ]);
  });
});
