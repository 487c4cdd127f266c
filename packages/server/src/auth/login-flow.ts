/**
 * @module auth/login-flow
 * One login attempt, for both login paths (`POST /api/v1/auth/` for core accounts, the
 * self-service `POST /api/v1/{flock}/user/auth/` for that flock's member accounts): the
 * login guard first (a locked account or pair is refused before the password is even
 * checked), then the credentials, a rehash when the stored hash's cost is not the current
 * one, the token, and the data events `login`, `failed_login` and `multiple_failed_login`
 * in each flock the account is listed in. Each event's `context_ref` is the account's person
 * in that flock (the person with the account's email), or null when there is none. The change
 * log names the account that logged in as the actor of `login` (a failed attempt has no
 * authenticated actor), with the request's APPLICATION label.
 */
import { recordUri, type RecordEngine, type UserRow } from "@records-service/core";
import type { LoginGuard } from "../protection/login-guard.js";
import { ALL_FLOCKS } from "./access.js";
import { findCallerPerson } from "./caller-person.js";
import { accountKeyOf, checkCredentials, issueToken, type AccountRef } from "./credentials.js";
import type { PasswordHasher } from "./passwords.js";
import { accountEmail } from "./usernames.js";

/** The data events a login emits. */
type LoginEventName = "login" | "failed_login" | "multiple_failed_login";

/** What one attempt came to; `ok` carries the new token (shown once) and its expiry. */
type LoginOutcome =
  | { kind: "ok"; user: UserRow; token: string; expires: string }
  | { kind: "denied" }
  | { kind: "locked"; retryAfterSeconds: number };

/** One attempt's input. */
interface LoginAttempt {
  account: AccountRef;
  password: string;
  /** The client address (see middleware/client-address). */
  address: string;
  /** The request's APPLICATION label (null: unattributed), logged with the events. */
  application?: string | null;
}

/** What the flow needs besides the engine and the guard. */
export interface LoginFlowOptions {
  passwords: PasswordHasher;
  /** Lifetime of a core API key. */
  coreKeyTtlMs: number;
  /** Lifetime of a self-service session. */
  sessionTtlMs: number;
}

export interface LoginFlow {
  attempt(input: LoginAttempt): Promise<LoginOutcome>;
}

/**
 * The login flow over an engine (for events) and a guard (shared by both login paths).
 *
 * @example
 * const flow = createLoginFlow(engine, createLoginGuard({ storage, clock }), { passwords, coreKeyTtlMs, sessionTtlMs });
 * const outcome = await flow.attempt({ account: { kind: "core", username }, password, address: clientAddress(c) });
 */
export function createLoginFlow(engine: RecordEngine, guard: LoginGuard, opts: LoginFlowOptions): LoginFlow {
  const { storage, clock } = engine.context;
  return {
    async attempt({ account, password, address, application = null }) {
      // An input that names no account is still counted, under its own (hashed) text; the
      // control characters keep it apart from every account key.
      const guardKey = accountKeyOf(account) ?? `\u0000invalid\u0000${account.kind === "core" ? account.username : account.email}`;
      const gate = await guard.check(guardKey, address);
      if (!gate.allowed) return { kind: "locked", retryAfterSeconds: gate.retryAfterSeconds };
      const { ok, user } = await checkCredentials(storage, opts.passwords, account, password);
      if (!ok || !user) {
        const failure = await guard.fail(guardKey, address);
        // Unknown accounts belong to no flock: nothing to record them in.
        if (user) {
          const unauthenticated = engine.withAttribution({ actor: null, application });
          await emitLoginEvents(unauthenticated, user, failure.multipleFailed ? ["failed_login", "multiple_failed_login"] : ["failed_login"]);
        }
        return { kind: "denied" };
      }
      const current = await _rehashIfNeeded(engine, opts.passwords, user, password);
      const lifetime = account.kind === "core" ? opts.coreKeyTtlMs : opts.sessionTtlMs;
      const { token, tokenHash, expires } = await issueToken(storage, clock, user.username, lifetime);
      // A password change committed while this attempt checked the old password has revoked
      // the account's keys already; this key must not outlive it.
      const after = await storage.getUser(user.username);
      if (!after || after.passwordHash !== current.passwordHash || after.role !== current.role) {
        await storage.deleteApiKey(tokenHash);
        return { kind: "denied" };
      }
      await guard.succeed(guardKey, address);
      await emitLoginEvents(engine.withAttribution({ actor: after.username, application }), after, ["login"]);
      return { kind: "ok", user: after, token, expires };
    },
  };
}

/**
 * Records login data events in every existing flock `user` is listed in. An administrator
 * (`"*"`) is an operator, not a member of any one flock: its logins go to no flock.
 */
async function emitLoginEvents(engine: RecordEngine, user: UserRow, names: readonly LoginEventName[]): Promise<void> {
  if (user.flocks.includes(ALL_FLOCKS)) return;
  for (const flock of user.flocks) {
    if (!(await engine.context.storage.getFlock(flock))) continue;
    const person = await findCallerPerson(engine, flock, accountEmail(user.username));
    const contextUri = person ? recordUri(flock, "person", person.id) : null;
    await engine.emit(flock, names.map((name) => ({ name, contextUri })));
  }
}

// --- internal ---

/**
 * Rehashes at the current cost after a right password, when the stored hash was made with
 * other parameters. Compare-and-set: a password change committed meanwhile wins.
 */
async function _rehashIfNeeded(engine: RecordEngine, passwords: PasswordHasher, user: UserRow, password: string): Promise<UserRow> {
  if (!passwords.needsRehash(user.passwordHash)) return user;
  const fresh = await passwords.hash(password);
  const replaced = await engine.context.storage.replacePasswordHash(user.username, user.passwordHash, fresh);
  return replaced ? { ...user, passwordHash: fresh } : user;
}
