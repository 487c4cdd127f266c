/**
 * What the segments gateway tests start from: five people of flock alpha with a `source`
 * (three "web", two "paper"; three surnames starting "Sm"), and a `segment` record maker.
 */
import type { TestApp } from "./app.js";

const _PEOPLE = [
  ["Ada", "Smith", "web"],
  ["Bea", "Smythe", "web"],
  ["Cy", "Jones", "web"],
  ["Di", "Smart", "paper"],
  ["Ed", "Brown", "paper"],
] as const;

/** Creates the five people in alpha; their ids in the order above. */
export async function seedSegmentPeople(t: TestApp): Promise<string[]> {
  const ids: string[] = [];
  for (const [first_name, last_name, source] of _PEOPLE) ids.push((await t.engine.create("alpha", "person", { first_name, last_name, source })).id);
  return ids;
}

/** Creates a `segment` record in alpha; its id. */
export const createSegment = (t: TestApp, data: Record<string, unknown>): Promise<string> => t.engine.create("alpha", "segment", data).then((r) => r.id);
