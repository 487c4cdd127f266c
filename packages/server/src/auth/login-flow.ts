/**
 * @module auth/login-flow
 * One login attempt, for both login paths (`POST /api/v1/auth/` and the self-service
 * `POST /api/v1/{flock}/user/auth/`): the login guard first (a locked username or pair is
 * refused before the password is even checked), then the credentials, then the data events
 * `login`, `failed_login` and `multiple_failed_login` in each flock the user is listed in.
 * Each event's `context_ref` is the user's person in that flock (the person with the
 * username as an email address), or null when there is none.
 */
import { recordUri, type RecordEngine, type UserRow } from "@records-service/core";
import type { LoginGuard } from "../protection/login-guard.js";
import { ALL_FLOCKS } from "./access.js";
import { findCallerPerson } from "./caller-person.js";
import { checkCredentials } from "./credentials.js";

/** The data events a login emits. */
export type LoginEventName = "login" | "failed_login" | "multiple_failed_login";

/** What one attempt came to. */
export type LoginOutcome =
  | { kind: "ok"; user: UserRow }
  | { kind: "denied" }
  | { kind: "locked"; retryAfterSeconds: number };

/** One attempt's input. */
export interface LoginAttempt {
  username: string;
  password: string;
  /** The client address (see middleware/client-address). */
  address: string;
  /** Further condition on a user with the right password (role, flock); refused ones count as failures. */
  accept?: (user: UserRow) => boolean | Promise<boolean>;
}

export interface LoginFlow {
  attempt(input: LoginAttempt): Promise<LoginOutcome>;
}

/**
 * The login flow over an engine (for events) and a guard (shared by both login paths, so
 * switching path does not reset the failure count).
 *
 * @example
 * const flow = createLoginFlow(engine, createLoginGuard({ clock }));
 * const outcome = await flow.attempt({ username, password, address: clientAddress(c) });
 */
export function createLoginFlow(engine: RecordEngine, guard: LoginGuard): LoginFlow {
  return {
    async attempt({ username, password, address, accept }) {
      const gate = guard.check(username, address);
      if (!gate.allowed) return { kind: "locked", retryAfterSeconds: gate.retryAfterSeconds };
      const { ok, user } = await checkCredentials(engine.context.storage, username, password);
      if (ok && user && (accept ? await accept(user) : true)) {
        guard.succeed(username, address);
        await emitLoginEvents(engine, user, ["login"]);
        return { kind: "ok", user };
      }
      const failure = guard.fail(username, address);
      // Unknown usernames belong to no flock: nothing to record them in.
      if (user) await emitLoginEvents(engine, user, failure.multipleFailed ? ["failed_login", "multiple_failed_login"] : ["failed_login"]);
      return { kind: "denied" };
    },
  };
}

/**
 * Records login data events in every existing flock `user` is listed in. An administrator
 * (`"*"`) is an operator, not a member of any one flock: its logins go to no flock.
 */
export async function emitLoginEvents(engine: RecordEngine, user: UserRow, names: readonly LoginEventName[]): Promise<void> {
  if (user.flocks.includes(ALL_FLOCKS)) return;
  for (const flock of user.flocks) {
    if (!(await engine.context.storage.getFlock(flock))) continue;
    const person = await findCallerPerson(engine, flock, user.username);
    const contextUri = person ? recordUri(flock, "person", person.id) : null;
    await engine.emit(flock, names.map((name) => ({ name, contextUri })));
  }
}
