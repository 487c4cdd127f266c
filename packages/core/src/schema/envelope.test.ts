import { describe, expect, it } from "vitest";
import type { ListQuery } from "../model/query.js";
import type { StoredRecord } from "../model/record.js";
import { listElementToSerialize, toListElement, toListWrapper, toSingleEnvelope } from "./envelope.js";
import { listAnswerText } from "./list-answer.js";
import { newPersonData, PERSON_FIELDS, personFieldsOfKind } from "./person.js";

const ID = "0123456789abcdef01234567";
const ORG = "fedcba9876543210fedcba98";
const ORG_URI = `/demo/organisation/${ORG}/`;

const person: StoredRecord = {
  id: ID,
  flock: "demo",
  type: "person",
  state: "updated",
  data: newPersonData({ first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org;home"], source: ORG_URI }),
  displayValue: "Ada Lovelace",
  created: "2026-01-15T10:00:00.000000",
  lastUpdated: "2026-01-16T11:00:00.000000",
  version: 2,
};

const query = (page: number, pageSize: number): ListQuery => ({ filters: [], mode: "AND", states: ["updated"], page, pageSize });

describe("toSingleEnvelope", () => {
  it("has exactly the spec's fields", () => {
    const env = toSingleEnvelope(person, new Map());
    expect(Object.keys(env).sort()).toEqual(["bucket", "data", "display_value", "links", "meta", "resource", "uri"]);
    expect(env).toMatchObject({
      bucket: "demo",
      display_value: "Ada Lovelace",
      links: [],
      meta: { created: "2026-01-15T10:00:00.000000", last_updated: "2026-01-16T11:00:00.000000", state: "updated" },
      resource: "person",
      uri: `/demo/person/${ID}/`,
    });
    expect(Object.keys(env.meta).sort()).toEqual(["created", "last_updated", "state"]);
  });

  it("shows unset person list fields as [null] and set ones as stored", () => {
    const { data } = toSingleEnvelope(person, new Map());
    for (const field of personFieldsOfKind("list")) {
      expect(data[field]).toEqual(field === "email" ? ["ada@example.org;home"] : [null]);
    }
    expect(data.first_name).toBe("Ada");
    expect(data.bio).toBeNull();
    expect(data.hide_from_views).toBe(false);
    expect(Object.keys(data).sort()).toEqual(Object.keys(PERSON_FIELDS).sort());
  });

  it("fills person fields missing from an old stored record", () => {
    const { data } = toSingleEnvelope({ ...person, data: { first_name: "Ada" } }, new Map());
    expect(Object.keys(data).sort()).toEqual(Object.keys(PERSON_FIELDS).sort());
    expect(data.tags).toEqual([null]);
    expect(data.hide_from_views).toBe(false);
  });

  it("expands the references given, and only those", () => {
    const journal: StoredRecord = {
      ...person,
      type: "journal",
      data: { org: ORG_URI, unknown: `/demo/person/${"1".repeat(24)}/`, list: [ORG_URI, `${ORG_URI};member`, 7], tags: null },
      displayValue: "an empty journal",
    };
    const { data } = toSingleEnvelope(journal, new Map([[ORG_URI, "Analytical Society"]]));
    expect(data).toEqual({
      org: { display_value: "Analytical Society", ref: ORG_URI },
      unknown: `/demo/person/${"1".repeat(24)}/`,
      // A whole-URI entry expands like a field; a labelled entry stays text.
      list: [{ display_value: "Analytical Society", ref: ORG_URI }, `${ORG_URI};member`, 7],
      tags: null, // [null] is for person list fields only
    });
  });

  it("does not change the stored record", () => {
    const copy = structuredClone(person);
    toSingleEnvelope(person, new Map([[ORG_URI, "x"]]));
    expect(person).toEqual(copy);
  });
});

describe("toListElement", () => {
  it("has exactly the spec's fields, state and dates at the top level", () => {
    const el = toListElement(person);
    expect(Object.keys(el).sort()).toEqual(
      ["_id", "bucket", "created", "data", "display_value", "id", "last_updated", "links", "permissions", "resource", "state", "uri"].sort(),
    );
    expect(el).toMatchObject({
      _id: null,
      bucket: "demo",
      created: "2026-01-15T10:00:00.000000",
      display_value: "Ada Lovelace",
      id: ID,
      last_updated: "2026-01-16T11:00:00.000000",
      links: [],
      permissions: {},
      resource: "person",
      state: "updated",
      uri: `/demo/person/${ID}/`,
    });
  });

  it("keeps references as URIs and unset lists as null", () => {
    const { data } = toListElement(person);
    expect(data.source).toBe(ORG_URI);
    expect(data.tags).toBeNull();
  });
});

describe("listElementToSerialize", () => {
  const { last_name: _dropped, ...partial } = person.data;
  it.each([
    ["a person with every field", person],
    ["a person stored without some field", { ...person, data: partial }],
    ["another type", { ...person, type: "organisation", data: { name: "Acme", tags: ["a"] } }],
  ])("serializes as toListElement does, for %s, and leaves the record as it was", async (_what, record) => {
    const before = JSON.stringify(record);
    expect(JSON.stringify(listElementToSerialize(record))).toBe(JSON.stringify(toListElement(record)));
    const page = { total: 3, records: [record, record] };
    expect(await listAnswerText(page, query(1, 2))).toBe(JSON.stringify(toListWrapper(page, query(1, 2))));
    expect(JSON.stringify(record)).toBe(before);
  });
});

describe("toListWrapper", () => {
  it.each([
    { total: 0, page: 1, pageSize: 25, pages: 0 },
    { total: 1, page: 1, pageSize: 25, pages: 1 },
    { total: 25, page: 1, pageSize: 25, pages: 1 },
    { total: 26, page: 2, pageSize: 25, pages: 2 },
    { total: 3001, page: 3, pageSize: 1500, pages: 3 },
  ])("total $total, page size $pageSize: $pages pages", ({ total, page, pageSize, pages }) => {
    const wrapper = toListWrapper({ total, records: total ? [person] : [] }, query(page, pageSize));
    expect(wrapper).toEqual({
      grand_total: total,
      total,
      page,
      page_size: pageSize,
      pages,
      links: [],
      results: total ? [toListElement(person)] : [],
      formatted_results: [],
    });
  });
});
