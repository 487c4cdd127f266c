/**
 * @module routes/contact-type
 * `contact`, the hosted service's read-only type spanning persons and organisations: the
 * list (the generic list's filters and paging), one contact by id, and `mapreduce`, the list
 * whose results also carry `key` (the URI) and `value` (display value, emails and the
 * active memberships), which membership plug-ins read. Writes answer 400. Mount before the
 * generic record routes.
 */
import { badRequest, formatDate, isActiveOn, listAnswerText, membershipSummaryEntry, parseListQuery, recordUri, toListElement, type StoredRecord } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/env.js";
import type { Surface } from "../http/surface.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented } from "../openapi/describe.js";
import { listQueryParams } from "../openapi/list-query.js";
import type { RecordQueries } from "../http/record-queries.js";
import type { RouteEngine } from "../http/route-engine.js";

/**
 * Routes `GET /:flock/contact`, `GET /:flock/contact/mapreduce`, `GET /:flock/contact/:id`,
 * and a 400 for every write under `/:flock/contact`.
 *
 * @example
 * const routes = contactTypeRoutes(engine, guards, queries, "v1"); route(app, "GET", "/api/v1/:flock/contact", routes.getContactRoute);
 */
export function contactTypeRoutes(engine: RouteEngine, guards: RouteGuards, queries: RecordQueries, surface: Surface) {
  const { clock } = engine.context;
  const guard = [guards.requireKey(), guards.requireFlock] as const;

  const page = async (c: { req: { url: string; param(name: "flock"): string } }) => {
    const query = parseListQuery(new URL(c.req.url).searchParams, { surface, now: clock.now() });
    return { query, page: await queries.listContacts(c.req.param("flock"), query) };
  };

  const readOnlyDoc = documented({
    tag: "contacts",
    summary: "Writes to contact: always refused (400)",
    description: "contact spans persons and organisations and is read-only: write to person or organisation. Every write answers 400 once the key may open the flock.",
    auth: "key",
    errors: [400, 403, 404],
  });
  const readOnly = () => {
    throw badRequest("read-only resource type", "contact spans persons and organisations and is read-only: write to person or organisation");
  };

  return {
    getContactRoute: [describeGetContactRoute(), ...guard, getContactRoute],
    getContactMapreduce: [describeGetContactMapreduce(), ...guard, getContactMapreduce],
    getContactId: [describeGetContactId(), ...guard, getContactId],
    updateContact: [readOnlyDoc, ...guard, readOnly],
    updateContactId: [readOnlyDoc, ...guard, readOnly],
  } as const;

  function describeGetContactRoute(): MiddlewareHandler {
    return documented({ tag: "contacts", summary: "List contacts (persons and organisations), filtered and paged", auth: "key", query: listQueryParams(surface), ok: { status: 200, description: "one page", schema: "ListWrapper" }, errors: [400, 403, 404] });
  }

  async function getContactRoute(c: Context<AppEnv, "/:flock/contact">) {
    const { query, page: found } = await page(c);
    return c.body(await listAnswerText(found, query), 200, _JSON_TYPE);
  }

  function describeGetContactMapreduce(): MiddlewareHandler {
    return documented({ tag: "contacts", summary: "List contacts with their email addresses and active memberships", auth: "key", query: listQueryParams(surface), ok: { status: 200, description: "one page; each element adds key (the contact URI) and value {display_value, email, active_memberships}", schema: "ReadModel" }, errors: [400, 403, 404] });
  }

  async function getContactMapreduce(c: Context<AppEnv, "/:flock/contact/mapreduce">) {
    const { query, page: found } = await page(c);
    const flock = c.req.param("flock");
    const uris = found.records.map(_uri);
    const memberships = await queries.membershipsOf(flock, uris);
    const today = formatDate(clock.now());
    const element = (r: StoredRecord) => {
      const active = (memberships.get(_uri(r)) ?? []).filter((m) => isActiveOn(m, today));
      return {
        ...toListElement(r),
        key: _uri(r),
        value: {
          display_value: r.displayValue,
          email: _list(r.data.email),
          active_memberships: active.map(membershipSummaryEntry),
        },
      };
    };
    return c.body(await listAnswerText(found, query, { element }), 200, _JSON_TYPE);
  }

  function describeGetContactId(): MiddlewareHandler {
    return documented({ tag: "contacts", summary: "Get a contact (the person or organisation with this id)", auth: "key", ok: { status: 200, description: "the record", schema: "Envelope" }, errors: [403, 404] });
  }

  async function getContactId(c: Context<AppEnv, "/:flock/contact/:id">) {
    const { flock, id } = c.req.param();
    return c.json(await engine.toSingle(await queries.getContact(flock, id)));
  }
}

// --- internal ---

const _JSON_TYPE = { "Content-Type": "application/json" } as const;

function _uri(r: StoredRecord): string {
  return recordUri(r.flock, r.type, r.id);
}

function _list(v: unknown): string[] {
  if (typeof v === "string") return [v];
  return Array.isArray(v) ? v.filter((e): e is string => typeof e === "string") : [];
}
