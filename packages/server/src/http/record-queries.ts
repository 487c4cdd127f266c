/**
 * @module http/record-queries
 * Core's read-side operations (contact lists, search and find, audit, aggregates), bound
 * to the engine's context once, for routes, whose engine holds no Storage. Each reads and
 * never writes, and checks the flock and type as core does; binding them here keeps the
 * route from the Storage they are run over.
 */
import {
  distinctValues,
  findContacts,
  flockHistory,
  getContact,
  groupCount,
  listContacts,
  lookupEntries,
  membershipsOf,
  recordHistory,
  recordProvenance,
  searchContacts,
  type EngineContext,
} from "@records-service/core";

/** `op` without its first parameter, the context. */
type Bound<F> = F extends (ctx: EngineContext, ...args: infer A) => infer R ? (...args: A) => R : never;

/** The read-side operations routes call, each as core's function of the same name. */
export interface RecordQueries {
  listContacts: Bound<typeof listContacts>;
  getContact: Bound<typeof getContact>;
  membershipsOf: Bound<typeof membershipsOf>;
  searchContacts: Bound<typeof searchContacts>;
  findContacts: Bound<typeof findContacts>;
  flockHistory: Bound<typeof flockHistory>;
  recordHistory: Bound<typeof recordHistory>;
  recordProvenance: Bound<typeof recordProvenance>;
  groupCount: Bound<typeof groupCount>;
  distinctValues: Bound<typeof distinctValues>;
  lookupEntries: Bound<typeof lookupEntries>;
}

/**
 * The operations over `ctx`.
 *
 * @example
 * const queries = createRecordQueries(engine.context);
 * await queries.getContact("demo", id); // the person or organisation `id`
 */
export function createRecordQueries(ctx: EngineContext): RecordQueries {
  return {
    listContacts: (...a) => listContacts(ctx, ...a),
    getContact: (...a) => getContact(ctx, ...a),
    membershipsOf: (...a) => membershipsOf(ctx, ...a),
    searchContacts: (...a) => searchContacts(ctx, ...a),
    findContacts: (...a) => findContacts(ctx, ...a),
    flockHistory: (...a) => flockHistory(ctx, ...a),
    recordHistory: (...a) => recordHistory(ctx, ...a),
    recordProvenance: (...a) => recordProvenance(ctx, ...a),
    groupCount: (...a) => groupCount(ctx, ...a),
    distinctValues: (...a) => distinctValues(ctx, ...a),
    lookupEntries: (...a) => lookupEntries(ctx, ...a),
  };
}
