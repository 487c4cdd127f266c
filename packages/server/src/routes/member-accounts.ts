/**
 * @module routes/member-accounts
 * The hosted service's member-account calls (spec v2-gateway section 5), under
 * `/api/v1/:flock/user`: `preauth` (does an account exist, before asking for a password; no
 * key, throttled like a login), `?email=` (a core key reads an account), and
 * `{username}/` and `{username}/person/` (the member's own token, or a core key). A member's
 * username is their email address. No answer ever carries a password hash, and preauth
 * never carries the person's names. Mount after the contact routes (`user/membership` keeps
 * its meaning) and before the generic record routes.
 */
import { badRequest, formatTimestamp, notFound, recordUri, type AccountStore, type Clock, type FlockStore, type StoredRecord, type UserRow } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import { Hono } from "hono";
import { findCallerPerson } from "../auth/caller-person.js";
import { hashToken } from "../auth/tokens.js";
import { accountEmail, isCoreUsername, memberAccountKey, normalizeUsername } from "../auth/usernames.js";
import { readGatewayParams } from "../gateway/params.js";
import type { AppEnv } from "../http/env.js";
import { bearerToken, type RouteGuards } from "../middleware/auth.js";
import { clientAddress } from "../middleware/client-address.js";
import { documented, queryParam } from "../openapi/describe.js";
import type { LoginGuard } from "../protection/login-guard.js";
import { tooManyLogins } from "./auth.js";
import type { RouteEngine } from "../http/route-engine.js";

/**
 * Routes `POST /:flock/user/preauth`, `GET /:flock/user?email=`, `GET /:flock/user/:username`
 * and `GET /:flock/user/:username/person`; mount under `/api/v1`.
 *
 * @example
 * const routes = memberAccountRoutes(engine, guards, guard, accounts, flocks); route(app, "POST", "/api/v1/:flock/user/preauth", routes.postUserPreauth);
 */
export function memberAccountRoutes(engine: RouteEngine, guards: RouteGuards, guard: LoginGuard, accounts: AccountStore, flocks: FlockStore) {
  const { clock } = engine.context;
  const coreOnly = [guards.requireKey(), guards.requireFlock] as const;
  const memberOrCore = [guards.requireKey(["core", "self-service"]), guards.requireFlock] as const;

  return {
    postUserPreauth: [describePostUserPreauth(), postUserPreauth],
    getUserRoute: [describeGetUserRoute(), ...coreOnly, getUserRoute],
    getUserUsername: [describeGetUserUsername(), ...memberOrCore, getUserUsername],
    getUserUsernamePerson: [describeGetUserUsernamePerson(), ...memberOrCore, getUserUsernamePerson],
  } as const;

  function describePostUserPreauth(): MiddlewareHandler {
    return documented({
      tag: "auth",
      summary: "Does a member account exist for this email? (before asking for a password)",
      description: "No key needed (one sent is ignored). email in the query, JSON or form body; quick is accepted and ignored. Throttled like a login per client address; an unknown email counts as a failed attempt. Answers only email, username, status and next_step.",
      auth: "none",
      query: [queryParam("email", "the member's email address (or in the body)"), queryParam("quick", "accepted and ignored")],
      body: { schema: "PreauthBody", media: ["application/json", "application/x-www-form-urlencoded"], required: false },
      ok: { status: 200, description: "the account exists", schema: "MemberPreauth" },
      errors: [404, 429],
    });
  }

  async function postUserPreauth(c: Context<AppEnv, "/:flock/user/preauth">) {
    const flock = c.req.param("flock");
    const email = _email((await readGatewayParams(c)).get("email"));
    if (!(await flocks.getFlock(flock))) throw notFound("unknown flock", `there is no flock ${JSON.stringify(flock)}`);
    const key = memberAccountKey(flock, email);
    const address = clientAddress(c);
    // A locked address gets the same 429 whichever email it asks about, so a lock reveals nothing.
    const addressGate = await guard.check(_PROBE, address);
    if (!addressGate.allowed) throw tooManyLogins(addressGate.retryAfterSeconds);
    const gate = await guard.check(key, address);
    const account = await _memberAccount(accounts, key);
    if (!account) {
      if (!gate.allowed) throw tooManyLogins(gate.retryAfterSeconds);
      await guard.fail(key, address);
      throw notFound("no account", `there is no member account for ${JSON.stringify(email)} in flock ${flock}`);
    }
    const login = accountEmail(account.username);
    const blocked = !gate.allowed;
    return c.json({ email: login, username: login, status: blocked ? "blocked" : "active", next_step: blocked ? "blocked" : "password" });
  }

  function describeGetUserRoute(): MiddlewareHandler {
    return documented({
      tag: "auth",
      summary: "A member account by email",
      auth: "key",
      query: [queryParam("email", "the member's email address (required)")],
      ok: { status: 200, description: "the account", schema: "MemberAccount" },
      errors: [400, 403, 404],
    });
  }

  async function getUserRoute(c: Context<AppEnv, "/:flock/user">) {
    const flock = c.req.param("flock");
    const email = _email(c.req.query("email"));
    const account = await _memberAccount(accounts, memberAccountKey(flock, email));
    if (!account) throw notFound("no account", `there is no member account for ${JSON.stringify(email)} in flock ${flock}`);
    const login = accountEmail(account.username);
    const person = await findCallerPerson(engine, flock, login);
    const last = await guard.lastLogin(account.username);
    return c.json({
      email: login,
      username: login,
      status: "active",
      first_name: _text(person?.data.first_name),
      last_name: _text(person?.data.last_name),
      person: person ? recordUri(flock, "person", person.id) : null,
      last_login_date: last === undefined ? null : formatTimestamp(new Date(last)),
      session_expiry: await _latestOpenSession(accounts, clock, account.username),
    });
  }

  function describeGetUserUsername(): MiddlewareHandler {
    return documented({
      tag: "auth",
      summary: "A member account by username (its email): the member's own token or a core key",
      auth: "keyOrSelfService",
      ok: { status: 200, description: "the account and its person", schema: "MemberAccountDetail" },
      errors: [403, 404],
    });
  }

  async function getUserUsername(c: Context<AppEnv, "/:flock/user/:username">) {
    const { account, person, sessionExpiry } = await _named(c, engine, accounts);
    const login = accountEmail(account.username);
    return c.json({
      email: login,
      username: login,
      first_name: _text(person?.data.first_name),
      last_name: _text(person?.data.last_name),
      session_expiry: sessionExpiry,
      person: person ? _personObject(person) : null,
    });
  }

  function describeGetUserUsernamePerson(): MiddlewareHandler {
    return documented({
      tag: "auth",
      summary: "A member's person: data fields as stored, uri and display_value",
      auth: "keyOrSelfService",
      ok: { status: 200, description: "the person", schema: "MemberPerson" },
      errors: [403, 404],
    });
  }

  async function getUserUsernamePerson(c: Context<AppEnv, "/:flock/user/:username/person">) {
    const { account, person } = await _named(c, engine, accounts);
    if (!person) throw notFound("person not found", `no person of flock ${c.req.param("flock")} has the email ${JSON.stringify(accountEmail(account.username))}`);
    return c.json(_personObject(person));
  }
}

// --- internal ---

/** The guard key whose state is only ever the address's own lock: no account can have it. */
const _PROBE = "\u0000preauth\u0000";

/** The email parameter, normalised; missing or malformed is a 400. */
function _email(raw: string | undefined): string {
  if (raw === undefined || raw.trim() === "") throw badRequest("missing email", "the parameter email is required: the member's email address");
  const email = normalizeUsername(raw);
  if (!isCoreUsername(email) || !/^[^@]+@[^@]+$/.test(email)) {
    throw badRequest("invalid email", `email ${JSON.stringify(raw.slice(0, 80))} is not an email address`);
  }
  return email;
}

/** The member account stored under `key` (never a staff account). */
async function _memberAccount(accounts: AccountStore, key: string): Promise<UserRow | undefined> {
  const user = await accounts.getUser(key);
  return user?.role === "self-service" ? user : undefined;
}

/**
 * The account `{username}` names, for the caller: a member token reaches only its own
 * account (another's is a 404, as an unknown one); a core key any of the flock's. With the
 * member's person and the session expiry to show.
 */
async function _named(c: Context<AppEnv>, engine: RouteEngine, accounts: AccountStore): Promise<{ account: UserRow; person: StoredRecord | undefined; sessionExpiry: string | null }> {
  const { flock, username } = c.req.param() as { flock: string; username: string };
  const wanted = normalizeUsername(username);
  const caller = c.get("user");
  const missing = () => notFound("no account", `there is no member account ${JSON.stringify(username.slice(0, 80))} in flock ${flock}`);
  if (!isCoreUsername(wanted)) throw missing();
  let account: UserRow | undefined;
  let sessionExpiry: string | null;
  if (caller.role === "self-service") {
    if (caller.username !== memberAccountKey(flock, wanted)) throw missing();
    account = caller;
    const token = bearerToken(c.req.header("authorization"));
    sessionExpiry = (token ? (await accounts.getApiKey(hashToken(token)))?.expires : null) ?? null;
  } else {
    account = await _memberAccount(accounts, memberAccountKey(flock, wanted));
    if (!account) throw missing();
    sessionExpiry = await _latestOpenSession(accounts, engine.context.clock, account.username);
  }
  const person = await findCallerPerson(engine, flock, accountEmail(account.username));
  return { account, person, sessionExpiry };
}

/** The expiry of the account's latest open session, or null when none is open. */
async function _latestOpenSession(accounts: AccountStore, clock: Clock, username: string): Promise<string | null> {
  const now = formatTimestamp(clock.now());
  let latest: string | null = null;
  for (const key of await accounts.apiKeysOf(username)) {
    if (key.expires !== null && key.expires > now && (latest === null || key.expires > latest)) latest = key.expires;
  }
  return latest;
}

/** A person as the member paths answer it: data fields as stored, then `uri` and `display_value`. */
function _personObject(person: StoredRecord): Record<string, unknown> {
  return { ...person.data, uri: recordUri(person.flock, "person", person.id), display_value: person.displayValue };
}

function _text(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}
