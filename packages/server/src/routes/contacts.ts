/**
 * @module routes/contacts
 * The hosted service's read models of one contact (a person or an organisation), served on
 * both surfaces: `membership/all`, `membership/summary`, `communications/detail`,
 * `personal/detail` and `summary` under the contact's URI; the membership status of the
 * person with an email (`user/membership`); and a membership with its member and plan
 * expanded (`member/{id}/detail`). Mount before the generic record routes.
 */
import { communicationsDetail, contactSummary, CONTACT_TYPE, CONTACT_TYPES, formatDate, membershipEntry, membershipStatus, membershipSummaryEntry, notFound, parseRecordUri, personalDetail, recordUri, type StoredRecord } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import * as v from "valibot";
import { findCallerPerson } from "../auth/caller-person.js";
import type { AppEnv } from "../http/env.js";
import { queryFlag, readQuery } from "../http/query.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented, queryParamsOf } from "../openapi/describe.js";
import type { RecordQueries } from "../http/record-queries.js";
import type { RouteEngine } from "../http/route-engine.js";

/** `user/membership`: the address to look up; `realtime` is accepted (nothing is cached). */
const MembershipByEmailQuery = v.object({
  email: v.pipe(v.string(), v.trim(), v.email("must be an email address"), v.maxLength(320, "must be at most 320 characters")),
  realtime: queryFlag,
});

/**
 * The contact read-model routes; mount under `/api/v1` and `/api/v2`.
 *
 * @example
 * const routes = contactRoutes(engine, guards, queries); route(app, "GET", "/api/v2/:flock/:type/:id/summary", routes.getSummary);
 */
export function contactRoutes(engine: RouteEngine, guards: RouteGuards, queries: RecordQueries) {
  const { clock } = engine.context;
  const guard = [guards.requireKey(), guards.requireFlock] as const;
  const today = () => formatDate(clock.now());

  const membershipsOfContact = async (contact: StoredRecord) => {
    const uri = recordUri(contact.flock, contact.type, contact.id);
    return (await queries.membershipsOf(contact.flock, [uri])).get(uri) ?? [];
  };

  return {
    getMembershipAll: [describeGetMembershipAll(), ...guard, getMembershipAll],
    getMembershipSummary: [describeGetMembershipSummary(), ...guard, getMembershipSummary],
    getCommunicationsDetail: [describeGetCommunicationsDetail(), ...guard, getCommunicationsDetail],
    getPersonalDetail: [describeGetPersonalDetail(), ...guard, getPersonalDetail],
    getSummary: [describeGetSummary(), ...guard, getSummary],
    getUserMembership: [describeGetUserMembership(), ...guard, getUserMembership],
  } as const;

  function describeGetMembershipAll(): MiddlewareHandler {
    return documented({ tag: "contacts", summary: "A contact's memberships, all of them", auth: "key", ok: { status: 200, description: "{contact_uri, count, memberships}", schema: "ReadModel" }, errors: [403, 404] });
  }

  async function getMembershipAll(c: Context<AppEnv, any>) {
    const contact = await _contact(engine, queries, c);
    const memberships = await membershipsOfContact(contact);
    return c.json({ contact_uri: _uri(contact), count: memberships.length, memberships: memberships.map(membershipEntry) });
  }

  function describeGetMembershipSummary(): MiddlewareHandler {
    return documented({ tag: "contacts", summary: "A contact's memberships, summarised", auth: "key", ok: { status: 200, description: "{contact_uri, count, memberships}", schema: "ReadModel" }, errors: [403, 404] });
  }

  async function getMembershipSummary(c: Context<AppEnv, any>) {
    const contact = await _contact(engine, queries, c);
    const memberships = await membershipsOfContact(contact);
    return c.json({ contact_uri: _uri(contact), count: memberships.length, memberships: memberships.map(membershipSummaryEntry) });
  }

  function describeGetCommunicationsDetail(): MiddlewareHandler {
    return documented({ tag: "contacts", summary: "A contact's communication details", auth: "key", ok: { status: 200, description: "the contact's addresses, phones and emails", schema: "ReadModel" }, errors: [403, 404] });
  }

  async function getCommunicationsDetail(c: Context<AppEnv, any>) {
    return c.json(communicationsDetail(await _contact(engine, queries, c)));
  }

  function describeGetPersonalDetail(): MiddlewareHandler {
    return documented({ tag: "contacts", summary: "A contact's personal details", auth: "key", ok: { status: 200, description: "the contact's personal fields", schema: "ReadModel" }, errors: [403, 404] });
  }

  async function getPersonalDetail(c: Context<AppEnv, any>) {
    return c.json(personalDetail(await _contact(engine, queries, c)));
  }

  function describeGetSummary(): MiddlewareHandler {
    return documented({ tag: "contacts", summary: "A contact's summary", auth: "key", ok: { status: 200, description: "the contact and its memberships as of today", schema: "ReadModel" }, errors: [403, 404] });
  }

  async function getSummary(c: Context<AppEnv, any>) {
    const contact = await _contact(engine, queries, c);
    return c.json(contactSummary(contact, await membershipsOfContact(contact), today()));
  }

  function describeGetUserMembership(): MiddlewareHandler {
    return documented({ tag: "contacts", summary: "The membership status of the person with an email address", auth: "key", query: queryParamsOf(MembershipByEmailQuery, { email: "the person's email address", realtime: "accepted and ignored (nothing is cached)" }), ok: { status: 200, description: "the person's membership status", schema: "ReadModel" }, errors: [400, 403, 404] });
  }

  async function getUserMembership(c: Context<AppEnv, "/:flock/user/membership">) {
    const { email } = readQuery(c, MembershipByEmailQuery);
    const flock = c.req.param("flock");
    const person = await findCallerPerson(engine, flock, email);
    if (!person) throw notFound("person not found", `no person in flock '${flock}' has the email address ${JSON.stringify(email)}`);
    return c.json(membershipStatus(person, await membershipsOfContact(person), today()));
  }
}

/**
 * `GET /:flock/member/:id/detail` (v2): the membership's single-record shape whose `member`
 * and `membership_type` references are expanded to the referenced records' own
 * single-record shapes (with `ref` and `display_value`, so readers of the short form still work).
 */
export function memberDetailRoutes(engine: RouteEngine, guards: RouteGuards) {

  return {
    getMemberIdDetail: [describeGetMemberIdDetail(), guards.requireKey(), guards.requireFlock, getMemberIdDetail],
  } as const;

  function describeGetMemberIdDetail(): MiddlewareHandler {
    return documented({ tag: "contacts", summary: "A membership with its member and membership type expanded", auth: "key", ok: { status: 200, description: "the membership's single-record shape, references expanded", schema: "Envelope" }, errors: [403, 404] });
  }

  async function getMemberIdDetail(c: Context<AppEnv, "/:flock/member/:id/detail">) {
    const { flock, id } = c.req.param();
    const member = await engine.get(flock, "member", id);
    const single = await engine.toSingle(member);
    const data = single.data as Record<string, unknown>;
    for (const field of ["member", "membership_type"]) {
      const raw = member.data[field];
      const uri = typeof raw === "string" ? parseRecordUri(raw) : undefined;
      if (!uri || uri.flock !== flock) continue;
      const [target] = await engine.read.getRecords(flock, [{ type: uri.type, id: uri.id }]);
      if (target) data[field] = { ref: raw, ...(await engine.toSingle(target)) };
    }
    return c.json(single);
  }
}

// --- internal ---

function _uri(r: StoredRecord): string {
  return recordUri(r.flock, r.type, r.id);
}

/** The person or organisation the path names (`contact` names either); 404 for other types. */
async function _contact(engine: RouteEngine, queries: RecordQueries, c: Context<AppEnv>): Promise<StoredRecord> {
  const { flock, type, id } = c.req.param() as { flock: string; type: string; id: string };
  if (type === CONTACT_TYPE) return queries.getContact(flock, id);
  if (!CONTACT_TYPES.includes(type)) {
    throw notFound("not a contact", `'${type}' records have no contact sub-resources; only ${CONTACT_TYPES.join(" and ")} records do`);
  }
  return engine.get(flock, type, id);
}
