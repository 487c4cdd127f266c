/**
 * @module client
 * `createClient`: the whole API behind one object, against this server or the hosted
 * service. It logs in on first use when given credentials (a core account, or a member's
 * self-service account), sends `APPLICATION` on every call, and retries 429s.
 */
import { createChangesApi, type ChangesApi } from "./changes.js";
import { createEventsApi, createInvoicesApi, type EventsApi, type InvoicesApi } from "./gateway.js";
import { createSegmentsApi, type SegmentsApi } from "./segments.js";
import { createRequester, type RequestOptions, type RetryOptions } from "./http.js";
import { createRecordsApi, type RecordsApi, type Surface } from "./records.js";
import { createTask, type Task } from "./tasks.js";
import type { ListPage, Schemas } from "./types.js";
import type { Query } from "./query.js";

/** A core account (POST /api/v1/auth/) or a member's self-service account of one flock. */
export type Credentials = { username: string; password: string } | { flock: string; email: string; password: string };

/** Options of `createClient`. */
export interface ClientOptions {
  /** The server's origin, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** `<Organisation>/<Application>/<Version>`: sent as `APPLICATION` on every call (unattributed calls are throttled). */
  application: string;
  /** An API key (or a self-service token). */
  apiKey?: string;
  /** Credentials to log in with on first use, instead of a key. */
  credentials?: Credentials;
  /** The fetch to use (default the global one): pass a test app's `request`, or a proxying fetch. */
  fetch?: typeof fetch;
  /** 429 handling: waits for Retry-After and retries, bounded. */
  retry?: RetryOptions;
  /** How to wait (between retries and task reads); tests pass a fake. */
  sleep?: (ms: number) => Promise<void>;
}

/** What a bulk action takes (the server's `BulkActionBody`). */
export type BulkAction = Schemas["BulkActionBody"];

/** The client. */
export interface RecordsClient {
  /** Logs in with the credentials (once; later calls reuse the key) and returns the key. */
  login(): Promise<string>;
  /** Ends a self-service session (DELETE /api/v1/{flock}/user/auth/). */
  logout(): Promise<void>;
  /** The flocks this key may open. */
  flocks(): Promise<Schemas["FlockList"]["flocks"]>;
  /** A flock's resource types with their counts. */
  types(flock: string): Promise<Schemas["TypeList"]["resource_type"]>;
  /** Record operations for one flock and resource type. */
  records<T extends string>(flock: string, type: T, opts?: { surface?: Surface }): RecordsApi<T>;
  /** The flock's data events (records of type data_event). */
  dataEvents(flock: string): RecordsApi<"data_event">;
  /** The flock's configured triggers, by name. */
  triggers(flock: string): Promise<Schemas["TriggerMap"]>;
  /** The flock's webhook and email deliveries (administrator keys). */
  outbox(flock: string, opts?: { status?: "pending" | "held" | "done" | "dead"; limit?: number }): Promise<Schemas["OutboxJobs"]["jobs"]>;
  /** Queues a bulk action; the task reports progress and ends complete or failed. */
  bulk(flock: string, action: BulkAction): Promise<Task>;
  /** Creates a member (self-service) account in the flock. */
  createMember(flock: string, email: string, password: string): Promise<Schemas["SelfServiceUserCreated"]>;
  /** The signed member card's URL (the signature comes from `records-service card-url` or your backend). */
  cardUrl(flock: string, memberId: string, signature: string): string;
  /** A member's own reservations (self-service token). */
  selfService(flock: string): SelfServiceApi;
  /** Form responses: a form's list (core keys); start, allocate and release (core keys or member tokens). */
  forms(flock: string): FormsApi;
  /** Member accounts: preauth (no key), by email (core keys), by username (core keys or the member's own token). */
  members(flock: string): MembersApi;
  /** The manual clock (servers started with `--clock manual`; administrator keys). */
  clock: ClockApi;
  /** The flock's change feed: `client.changes("demo").subscribe((c) => ...)`. */
  changes(flock: string): ChangesApi;
  /** The events gateway (`/events/v2`): events, ticket types and stock, tickets, attendance. */
  events(flock: string): EventsApi;
  /** The segments gateway (`/segments/v2`): lists, trees, create, count, config, members, XLSX export, delete action, fieldsets. */
  segments(flock: string): SegmentsApi;
  /** The invoices gateway (`/invoices/v2`): keyed and signed invoices, invoice PDFs and giving statements. */
  invoices(flock: string): InvoicesApi;
}

/** Self-service reservations. */
export interface SelfServiceApi {
  reservations(): Promise<Schemas["ReservationList"]>;
  reservation(id: string): Promise<Schemas["Reservation"]>;
  cancel(id: string, reason?: string): Promise<Schemas["Reservation"]>;
}

/** A form's responses. */
export interface FormsApi {
  /**
   * One page of the form's live responses, newest first; `contact_ref`, `form_ref` and the
   * URIs in `context_ref` are `{display_value, ref}`. `query` takes the list filters and
   * paging (`query().where("status", "submitted").pageSize(50)`). `formType` is `sheep_form`
   * for the older forms.
   */
  responses(formId: string, query?: Query, opts?: { formType?: "form" | "sheep_form"; surface?: Surface }): Promise<ListPage<"form_response">>;
  /**
   * Starts `quantity` (1..50, default 1) empty responses to the form (its URI); with a member
   * token their `requested_by_ref` is the member's person.
   */
  startResponses(formRef: string, quantity?: number): Promise<Schemas["FormResponsesCreated"]>;
  /** Allocates a response to a person or organisation (its URI). */
  allocate(responseId: string, contactRef: string): Promise<Schemas["Envelope"]>;
  /** Releases a response: its `contact_ref` becomes null. */
  release(responseId: string): Promise<Schemas["Envelope"]>;
}

/** Member accounts (the hosted service's member-account calls). */
export interface MembersApi {
  /** Does an account exist for this email? Sent without a key; 404 (RecordsApiError) when none. */
  preauth(email: string): Promise<Schemas["MemberPreauth"]>;
  /** The account by email, with names, person URI, last login and open session (core keys). */
  byEmail(email: string): Promise<Schemas["MemberAccount"]>;
  /** The account by username (its email), with its person (core keys, or the member's own token). */
  get(username: string): Promise<Schemas["MemberAccountDetail"]>;
  /** The member's person: data fields as stored, `uri` and `display_value`. */
  person(username: string): Promise<Schemas["MemberPerson"]>;
}

/** The manual clock. */
export interface ClockApi {
  now(): Promise<string>;
  /** Moves forward by days or seconds, or to a UTC time; resolves with the new time and what fired. */
  advance(by: Schemas["ClockAdvanceBody"]): Promise<Schemas["ClockAdvanced"]>;
}

/**
 * A client.
 *
 * @example
 * const client = createClient({ baseUrl: "http://127.0.0.1:8080", application: "Acme/Sync/1.0", credentials: { username, password } });
 * const ada = await client.records("demo", "person").create({ first_name: "Ada", last_name: "Lovelace" });
 */
export function createClient(opts: ClientOptions): RecordsClient {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const send = createRequester({ baseUrl: opts.baseUrl, application: opts.application, sleep, ...(opts.fetch ? { fetch: opts.fetch } : {}), ...(opts.retry ? { retry: opts.retry } : {}) });
  let key: Promise<string> | undefined = opts.apiKey !== undefined ? Promise.resolve(opts.apiKey) : undefined;

  const login = (): Promise<string> => {
    if (key) return key;
    const c = opts.credentials;
    if (!c) return Promise.reject(new Error("createClient: give apiKey or credentials"));
    key =
      "email" in c
        ? send<Schemas["SelfServiceSession"]>("POST", `/api/v1/${_seg(c.flock)}/user/auth/`, { json: { email: c.email, password: c.password } }).then((s) => s.bearer_token)
        : send<Schemas["ApiKey"]>("POST", "/api/v1/auth/", { json: { username: c.username, password: c.password } }).then((a) => a.api_key);
    // A failed login is not remembered: the next call tries again.
    key.catch(() => (key = undefined));
    return key;
  };
  const request = async <T>(method: string, path: string, o: RequestOptions = {}): Promise<T> => send<T>(method, path, { ...o, token: await login() });

  const client: RecordsClient = {
    login,
    async logout() {
      const c = opts.credentials;
      if (!c || !("email" in c)) throw new Error("logout ends a self-service session: create the client with { flock, email, password }");
      await request("DELETE", `/api/v1/${_seg(c.flock)}/user/auth/`);
      key = undefined;
    },
    flocks: async () => (await request<Schemas["FlockList"]>("GET", "/api/v1/")).flocks,
    types: async (flock) => (await request<Schemas["TypeList"]>("GET", `/api/v1/${_seg(flock)}/`)).resource_type,
    records: (flock, type, o = {}) => createRecordsApi(request, flock, type, o.surface),
    dataEvents: (flock) => createRecordsApi(request, flock, "data_event"),
    triggers: (flock) => request("GET", `/api/v1/${_seg(flock)}/triggers/`),
    outbox: async (flock, o = {}) => (await request<Schemas["OutboxJobs"]>("GET", `/api/v1/${_seg(flock)}/outbox/`, { query: o })).jobs,
    async bulk(flock, action) {
      const answer = await request<Schemas["TaskId"]>("POST", `/api/v1/${_seg(flock)}/bulk_action/`, { json: action });
      return createTask(createRecordsApi(request, flock, "core_event"), answer, sleep);
    },
    createMember: (flock, email, password) => request("POST", `/api/v1/${_seg(flock)}/user/`, { json: { email, password } }),
    cardUrl: (flock, memberId, signature) =>
      `${opts.baseUrl.replace(/\/+$/, "")}/api/v2/${_seg(flock)}/member/${_seg(memberId)}/card/?signature=${encodeURIComponent(signature)}`,
    selfService(flock) {
      const base = `/api/v2/selfservice/${_seg(flock)}`;
      return {
        reservations: () => request("GET", `${base}/reservations/`),
        reservation: (id) => request("GET", `${base}/reservation/${_seg(id)}/`),
        cancel: (id, reason) => request("DELETE", `${base}/reservation/${_seg(id)}/`, { query: { cancellation_reason: reason } }),
      };
    },
    forms: (flock) => ({
      responses: (formId, q, o = {}) =>
        request("GET", `/api/${o.surface ?? "v1"}/${_seg(flock)}/${o.formType ?? "form"}/${_seg(formId)}/responses/`, q ? { query: q.toSearchParams() } : {}),
      startResponses: (formRef, quantity) => request("POST", `/selfservice/v2/${_seg(flock)}/form_response`, { json: { form_ref: formRef, ...(quantity === undefined ? {} : { quantity }) } }),
      allocate: (id, contactRef) => request("PUT", `/selfservice/v2/${_seg(flock)}/form_response/${_seg(id)}/allocate`, { json: { contact_ref: contactRef } }),
      release: (id) => request("DELETE", `/selfservice/v2/${_seg(flock)}/form_response/${_seg(id)}/allocate`),
    }),
    members(flock) {
      const base = `/api/v1/${_seg(flock)}/user`;
      return {
        // No key: the server ignores one, and a client without credentials can ask.
        preauth: (email) => send("POST", `${base}/preauth/`, { json: { email } }),
        byEmail: (email) => request("GET", `${base}/`, { query: { email } }),
        get: (username) => request("GET", `${base}/${_seg(username)}/`),
        person: (username) => request("GET", `${base}/${_seg(username)}/person/`),
      };
    },
    changes: (flock) => createChangesApi(request, flock, sleep),
    events: (flock) => createEventsApi(request, flock),
    segments: (flock) => createSegmentsApi(request, flock),
    invoices: (flock) => createInvoicesApi(request, (method, path, o = {}) => send(method, path, o), flock),
    clock: {
      now: async () => (await request<Schemas["ClockNow"]>("GET", "/api/v1/_clock/")).now,
      advance: (by) => request("POST", "/api/v1/_clock/advance/", { json: by }),
    },
  };
  return client;
}

// --- internal ---

function _seg(s: string): string {
  return encodeURIComponent(s);
}
