/**
 * @module http/env
 * The Hono environment every route shares: what the auth middleware puts on the context.
 */
import type { UserRow } from "@records-service/core";

/** Context variables. `user` is set by `requireKey` on every authenticated path. */
export interface AppEnv {
  Variables: {
    user: UserRow;
    /** Set by `app.onError` for a 500, so the access log can record what failed. */
    unexpectedError?: Error;
    /** Set by the attribution middleware: the APPLICATION label, or null when unattributed. */
    application?: string | null;
    /**
     * True when no middleware reads or changes an answer's headers after the route (set by
     * the attribution for an attributed request when the app has no request metrics): the
     * hot reads may then answer with final plain headers (security-headers `securedJson`).
     */
    finalHeaders?: boolean;
    /** Set by the body limit: the whole body as received, so readers need not copy it again. */
    rawBody?: Uint8Array;
  };
}
