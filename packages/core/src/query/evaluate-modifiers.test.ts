import { describe, expect, it } from "vitest";
import { matchesFilter, matchesFilters } from "./evaluate.js";
import { makeRecord, parseQs } from "./test-helpers.js";
import { MODIFIERS, type Modifier } from "../model/query.js";

const enc = (pairs: [string, string][]) => new URLSearchParams(pairs).toString();

/** One filter case: the record's data, the query string, whether it matches. */
interface Case {
  name: string;
  data: Record<string, unknown>;
  q: string;
  match: boolean;
}

/** A person with every kind of stored value: text, lists, numbers, a boolean, null, an object. */
const PERSON = {
  first_name: "Ada",
  last_name: "Lovelace",
  email: ["ada@example.org;home", "countess@example.org;work"],
  tags: ["math", "poetry", "a,b"],
  age: 36,
  scores: [3, 20],
  member: true,
  notes: null,
  start_date: "2026-01-15",
  code: "10",
  geo: { lat: 51.5, lng: -0.12 },
};

const CASES: { op: Modifier; cases: Case[] }[] = [
  {
    op: "eq",
    cases: [
      { name: "equal text", data: PERSON, q: "last_name=Lovelace", match: true },
      { name: "case-sensitive", data: PERSON, q: "last_name=lovelace", match: false },
      { name: "whole value only", data: PERSON, q: "last_name=Love", match: false },
      { name: "any list entry", data: PERSON, q: "tags=poetry", match: true },
      { name: "a whole list entry, not its address part", data: PERSON, q: "email=ada%40example.org", match: false },
      { name: "the whole list entry", data: PERSON, q: enc([["email", "ada@example.org;home"]]), match: true },
      { name: "a number by its text", data: PERSON, q: "age=36", match: true },
      { name: "a number is not re-parsed", data: PERSON, q: "age=36.0", match: false },
      { name: "a boolean as true", data: PERSON, q: "member=true", match: true },
      { name: "a boolean is not 1", data: PERSON, q: "member=1", match: false },
      { name: "an object by its JSON text", data: PERSON, q: enc([["geo", '{"lat":51.5,"lng":-0.12}']]), match: true },
      { name: "null never matches", data: PERSON, q: "notes=null", match: false },
      { name: "null never matches the empty text", data: PERSON, q: "notes=", match: false },
      { name: "absent never matches", data: PERSON, q: "shoe_size=", match: false },
      { name: "the empty text matches an empty string", data: { notes: "" }, q: "notes=", match: true },
      { name: "a list with a null element skips it", data: { tags: [null, "x"] }, q: "tags=x", match: true },
      { name: "an empty list never matches", data: { tags: [] }, q: "tags=", match: false },
      { name: "a smart date resolves to a timestamp", data: { due: "2026-03-31T08:15:30.123000" }, q: "due=today", match: true },
    ],
  },
  {
    op: "raw",
    cases: [
      { name: "literal text", data: { word: "today" }, q: "word__raw=today", match: true },
      { name: "no smart date", data: { due: "2026-03-31T08:15:30.123000" }, q: "due__raw=today", match: false },
      { name: "case-sensitive", data: PERSON, q: "last_name__raw=LOVELACE", match: false },
      { name: "any list entry", data: PERSON, q: "tags__raw=math", match: true },
    ],
  },
  {
    op: "ne",
    cases: [
      { name: "different text", data: PERSON, q: "last_name__ne=Byron", match: true },
      { name: "equal text", data: PERSON, q: "last_name__ne=Lovelace", match: false },
      { name: "case-sensitive", data: PERSON, q: "last_name__ne=lovelace", match: true },
      { name: "no list entry may equal", data: PERSON, q: "tags__ne=math", match: false },
      { name: "absent matches", data: PERSON, q: "shoe_size__ne=9", match: true },
      { name: "null matches", data: PERSON, q: "notes__ne=x", match: true },
    ],
  },
  {
    op: "contains",
    cases: [
      { name: "substring", data: PERSON, q: "last_name__contains=ove", match: true },
      { name: "case-sensitive", data: PERSON, q: "last_name__contains=LOVE", match: false },
      { name: "in any list entry", data: PERSON, q: "email__contains=countess", match: true },
      { name: "in a number's text", data: PERSON, q: "age__contains=6", match: true },
      { name: "in an object's JSON", data: PERSON, q: "geo__contains=lat", match: true },
      { name: "absent", data: PERSON, q: "shoe_size__contains=1", match: false },
      { name: "the empty text is in every value", data: PERSON, q: "last_name__contains=", match: true },
    ],
  },
  {
    op: "near",
    cases: [
      { name: "substring ignoring case", data: PERSON, q: "last_name__near=LOVE", match: true },
      { name: "in any list entry", data: PERSON, q: "email__near=COUNTESS", match: true },
      { name: "non-ASCII case folding", data: { city: "ÅRHUS" }, q: enc([["city__near", "århus"]]), match: true },
      { name: "not a substring", data: PERSON, q: "last_name__near=byron", match: false },
      { name: "null", data: PERSON, q: "notes__near=", match: false },
    ],
  },
  {
    op: "startswith",
    cases: [
      { name: "prefix", data: PERSON, q: "last_name__startswith=Love", match: true },
      { name: "case-sensitive", data: PERSON, q: "last_name__startswith=love", match: false },
      { name: "not a prefix", data: PERSON, q: "last_name__startswith=lace", match: false },
      { name: "any list entry", data: PERSON, q: "email__startswith=countess", match: true },
      { name: "absent", data: PERSON, q: "shoe_size__startswith=", match: false },
    ],
  },
  {
    op: "startswithi",
    cases: [
      { name: "prefix ignoring case", data: PERSON, q: "email__startswithi=ADA%40EXAMPLE.ORG", match: true },
      { name: "value folded too", data: PERSON, q: "last_name__startswithi=lOVE", match: true },
      { name: "not a prefix", data: PERSON, q: "last_name__startswithi=LACE", match: false },
      { name: "absent", data: PERSON, q: "shoe_size__startswithi=a", match: false },
    ],
  },
  {
    op: "gt",
    cases: [
      { name: "numbers numerically", data: { amount: 10 }, q: "amount__gt=9", match: true },
      { name: "numbers, not greater", data: { amount: 10 }, q: "amount__gt=10", match: false },
      { name: "decimals", data: { amount: 10.25 }, q: "amount__gt=10.2", match: true },
      { name: "negative numbers", data: { amount: -1 }, q: "amount__gt=-2", match: true },
      { name: "a numeric value skips string entries", data: PERSON, q: "code__gt=9", match: false },
      { name: "a text value skips number entries", data: { amount: 10 }, q: "amount__gt=1a", match: false },
      { name: "text by code units", data: PERSON, q: "code__gt=1a", match: false },
      { name: "dates as text", data: PERSON, q: "start_date__gt=2026-01-14", match: true },
      { name: "booleans never", data: PERSON, q: "member__gt=a", match: false },
      { name: "objects never", data: PERSON, q: "geo__gt=%20", match: false },
      { name: "any list entry", data: PERSON, q: "scores__gt=10", match: true },
      { name: "a smart date against a timestamp", data: { due: "2026-04-01T00:00:00.000000" }, q: "due__gt=today", match: true },
      { name: "null", data: PERSON, q: "notes__gt=0", match: false },
      { name: "absent", data: PERSON, q: "shoe_size__gt=0", match: false },
    ],
  },
  {
    op: "gte",
    cases: [
      { name: "equal number", data: { amount: 10 }, q: "amount__gte=10", match: true },
      { name: "equal number written with a fraction", data: { amount: 10 }, q: "amount__gte=10.0", match: true },
      { name: "smaller number", data: { amount: 9 }, q: "amount__gte=10", match: false },
      { name: "equal text", data: PERSON, q: "start_date__gte=2026-01-15", match: true },
      { name: "a date is past a timestamp of an earlier day", data: PERSON, q: "start_date__gte=last%20month", match: false },
      { name: "a date is on a later time of its own day", data: PERSON, q: "start_date__gte=2026-01-15T10:00:00.000000", match: true },
      { name: "a timestamp earlier that day is not", data: { at: "2026-01-15T09:00:00.000000" }, q: "at__gte=2026-01-15T10:00:00.000000", match: false },
    ],
  },
  {
    op: "lt",
    cases: [
      { name: "numbers numerically (9 < 10)", data: { amount: 9 }, q: "amount__lt=10", match: true },
      { name: "equal number", data: { amount: 10 }, q: "amount__lt=10", match: false },
      { name: "a date is not before a time on its own day", data: PERSON, q: "start_date__lt=2026-01-15T00:00", match: false },
      { name: "a date is before a time of a later day", data: PERSON, q: "start_date__lt=2026-01-16T00:00", match: true },
      { name: "a text prefix sorts first", data: { code: "ab" }, q: "code__lt=abc", match: true },
      { name: "UTF-16 order: astral before U+FFFF", data: { sym: "\u{1F600}" }, q: enc([["sym__lt", "\uFFFF"]]), match: true },
      { name: "any list entry", data: PERSON, q: "scores__lt=4", match: true },
      { name: "no list entry", data: PERSON, q: "scores__lt=3", match: false },
    ],
  },
  {
    op: "lte",
    cases: [
      { name: "equal number", data: { amount: 10 }, q: "amount__lte=10", match: true },
      { name: "greater number", data: { amount: 11 }, q: "amount__lte=10", match: false },
      { name: "equal text", data: PERSON, q: "start_date__lte=2026-01-15", match: true },
      { name: "a smart date past the date", data: PERSON, q: "start_date__lte=yesterday", match: true },
    ],
  },
  {
    op: "and",
    cases: [
      { name: "every value present", data: PERSON, q: "tags__and=math&tags__and=poetry", match: true },
      { name: "one value missing", data: PERSON, q: "tags__and=math&tags__and=art", match: false },
      { name: "a value with a comma is one value", data: PERSON, q: enc([["tags__and", "a,b"]]), match: true },
      { name: "a scalar as a one-entry list", data: PERSON, q: "last_name__and=Lovelace", match: true },
      { name: "absent", data: PERSON, q: "shoe_size__and=9", match: false },
    ],
  },
  {
    op: "andlist",
    cases: [
      { name: "every value present", data: PERSON, q: "tags__andlist=math,poetry", match: true },
      { name: "one value missing", data: PERSON, q: "tags__andlist=math,art", match: false },
      { name: "numbers by text", data: PERSON, q: "scores__andlist=3,20", match: true },
      { name: "absent", data: PERSON, q: "shoe_size__andlist=9", match: false },
    ],
  },
  {
    op: "or",
    cases: [
      { name: "one value present", data: PERSON, q: "tags__or=art&tags__or=math", match: true },
      { name: "no value present", data: PERSON, q: "tags__or=art&tags__or=music", match: false },
      { name: "a value with a comma is one value", data: PERSON, q: enc([["tags__or", "a,b"]]), match: true },
      { name: "the comma is not a separator", data: { tags: ["a"] }, q: enc([["tags__or", "a,b"]]), match: false },
      { name: "null", data: PERSON, q: "notes__or=x", match: false },
    ],
  },
  {
    op: "orlist",
    cases: [
      { name: "one value present", data: PERSON, q: "tags__orlist=art,poetry", match: true },
      { name: "no value present", data: PERSON, q: "tags__orlist=art,music", match: false },
      { name: "scalar field", data: PERSON, q: "first_name__orlist=Ada,Grace", match: true },
      { name: "absent", data: PERSON, q: "shoe_size__orlist=9,10", match: false },
    ],
  },
  {
    op: "none",
    cases: [
      { name: "no value present", data: PERSON, q: "tags__none=art,music", match: true },
      { name: "one value present", data: PERSON, q: "tags__none=art,math", match: false },
      { name: "absent matches", data: PERSON, q: "shoe_size__none=9", match: true },
      { name: "null matches", data: PERSON, q: "notes__none=x", match: true },
      { name: "scalar present", data: PERSON, q: "first_name__none=Ada", match: false },
    ],
  },
];

describe("matchesFilter: every modifier", () => {
  it("covers all 16 modifiers", () => {
    expect(CASES.map((c) => c.op).sort()).toEqual([...MODIFIERS].sort());
  });

  describe.each(CASES)("$op", ({ op, cases }) => {
    it.each(cases)("$name: $q -> $match", ({ data, q, match }) => {
      const { filters } = parseQs(q);
      expect(filters.map((f) => f.op)).toContain(op);
      const record = makeRecord(data);
      expect(filters.every((f) => matchesFilter(record, f))).toBe(match);
      expect(matchesFilters(record, parseQs(q))).toBe(match);
    });
  });
});
