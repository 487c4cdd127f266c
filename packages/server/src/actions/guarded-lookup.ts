/**
 * @module actions/guarded-lookup
 * The DNS lookup webhook connections use: it resolves the name, and refuses the connection
 * when any address it resolved to is private, loopback, link-local or otherwise
 * restricted (core's `isRestrictedAddress`), unless private targets are allowed. It runs
 * when the socket connects, on the very addresses the socket will use, so a name that
 * answered with a public address when the trigger was configured and a private one now
 * (DNS rebinding) is refused too. A `localhost` name, with or without trailing dots, is
 * resolved as `localhost`.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import type { LookupFunction } from "node:net";
import { addressRange, isLoopbackName, PRIVATE_TARGETS_RULE } from "@records-service/core";

/** A connection refused because of where it would go. Its message is the job's `last_error`. */
export class RestrictedTargetError extends Error {
  override readonly name = "RestrictedTargetError";
  readonly code = "ERR_RESTRICTED_TARGET";
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(`refused: ${host} resolves to ${address} (${range}); ${PRIVATE_TARGETS_RULE}`);
  }
}

/** Resolves every address of a name, as `dns.lookup(host, { all: true })` does. */
export type Resolver = (host: string, options: LookupOptions & { all: true }, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/** Options of `createGuardedLookup`. */
export interface GuardedLookupOptions {
  /** Connect to restricted addresses too (config `webhooks.allowPrivateTargets` or `allowInsecureUrls`). */
  allowPrivateTargets: boolean;
  /** Default: `dns.lookup` (the system resolver). Tests inject one. */
  resolve?: Resolver;
}

/**
 * A `lookup` for `net.connect`/`http.Agent` that refuses restricted addresses.
 *
 * @example
 * new https.Agent({ lookup: createGuardedLookup({ allowPrivateTargets: false }) });
 */
export function createGuardedLookup(opts: GuardedLookupOptions): LookupFunction {
  const resolve: Resolver = opts.resolve ?? ((host, options, callback) => dnsLookup(host, options, callback));
  return (hostname, options, callback) => {
    // `localhost`, `localhost.` and `*.localhost` all mean the loopback interface (RFC 6761),
    // whatever the system resolver makes of the dotted forms: resolved as `localhost`.
    resolve(isLoopbackName(hostname) ? "localhost" : hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "", 0);
      if (!opts.allowPrivateTargets) {
        for (const a of addresses) {
          const range = addressRange(a.address);
          if (range !== undefined && range !== "public") return callback(new RestrictedTargetError(hostname, a.address, range), "", 0);
        }
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
