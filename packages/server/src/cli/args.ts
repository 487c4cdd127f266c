/**
 * @module cli/args
 * Turns the command line into one typed command, or a `UsageError` (one line, exit 2).
 * Parsing is strict (`node:util` parseArgs): unknown flags, missing values and stray
 * arguments are refused, never ignored.
 */
import { availableParallelism } from "node:os";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { FIELD_NAME_RE, type OutboxStatus } from "@records-service/core";
import { ROLES, type Role } from "../auth/accounts.js";
import { parseClockSetting, type ClockSetting } from "../clock/manual-clock.js";
import { CONFIG_DEFAULTS, FLAG_DEFAULTS, FLOCK_ID_RE, MAX_BACKUPS_KEPT, RESERVED_FLOCK_IDS } from "../config/schema.js";
import { checkDbValue } from "../db-value.js";
import { INVOICE_TYPES, type InvoiceType } from "../gateway/invoices/signature.js";
import { USAGE } from "./usage.js";

/** A bad command line. The message is one line; the CLI exits 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** One parsed command. */
export type Command =
  | { kind: "help"; text: string }
  | { kind: "serve"; db: string; host: string; port: number; config: string | undefined; quiet: boolean; processes: number; clock: ClockSetting | undefined; allowExistingData?: boolean | undefined; demoData?: boolean | undefined }
  | { kind: "flock-add"; db: string; id: string; name: string }
  | { kind: "user-add"; db: string; username: string; password: string; flocks: string[]; role: Role }
  | { kind: "user-revoke"; db: string; username: string; flock: string | undefined }
  | { kind: "card-url"; db: string; flock: string; memberId: string; baseUrl: string }
  | { kind: "invoice-url"; db: string; flock: string; invoiceType: InvoiceType; uid: string; baseUrl: string }
  | { kind: "webhook-secret"; db: string; flock: string; config: string | undefined }
  | { kind: "jobs"; db: string; status: OutboxStatus | undefined; flock: string | undefined; limit: number }
  | { kind: "indexes"; db: string; flock: string | undefined; change: IndexChange | undefined }
  | { kind: "copy"; from: string; to: string; resume: boolean; batchSize: number }
  | { kind: "export"; db: string; flock: string; type: string | undefined; includeDeleted: boolean; format: "ndjson" | "csv" }
  | { kind: "seed"; db: string; flock: string; persons: number; seed: number }
  | { kind: "import"; db: string; file: string; flock: string; type: string | undefined; events: boolean; update: boolean; config: string | undefined; batchSize: number }
  | { kind: "openapi" }
  | { kind: "backup"; db: string; to: string; keep: number }
  | { kind: "restore"; db: string; file: string; force: boolean }
  | { kind: "config-apply"; db: string; file: string }
  | { kind: "config-show"; db: string };

/** One change `indexes` makes: `--add`, `--drop` or `--reset TYPE.FIELD`. */
export interface IndexChange {
  op: "add" | "drop" | "reset";
  type: string;
  field: string;
}

/** The environment variables the CLI reads. */
export interface CliEnv {
  HOST?: string | undefined;
  PORT?: string | undefined;
  RECORDS_LOG?: string | undefined;
  /** The database when `--db` is not given (a PostgreSQL URL or a SQLite path). */
  DATABASE_URL?: string | undefined;
}

/**
 * Parses `argv` (without node and the script). Throws `UsageError`.
 *
 * @example
 * parseCommand(["serve", "--port", "0"], {}) // { kind: "serve", port: 0, host: "127.0.0.1", ... }
 */
export function parseCommand(argv: string[], env: CliEnv): Command {
  const [first, second] = argv;
  if (first === undefined) throw new UsageError("missing command: records-service serve|flock add|user add|user revoke|card-url|invoice-url|webhook-secret|jobs|indexes|config apply|config show|copy|export|import|seed|openapi|backup|restore (see --help)");
  if (first === "help" || first === "--help" || first === "-h") return { kind: "help", text: USAGE.main };
  if (first === "serve") return _serve(argv.slice(1), env);
  if (first === "user" && second === "revoke") return _userRevoke(argv.slice(2), env);
  if (first === "flock" || first === "user") {
    if (second === "--help" || second === "-h") return { kind: "help", text: USAGE[`${first} add`] };
    if (second !== "add") {
      const others = first === "user" ? '"user add" or "user revoke"' : '"flock add"';
      throw new UsageError(
        second === undefined
          ? `missing subcommand: records-service ${first} add ...`
          : `unknown subcommand "${first} ${second}": expected ${others}`,
      );
    }
    return first === "flock" ? _flockAdd(argv.slice(2), env) : _userAdd(argv.slice(2), env);
  }
  if (first === "config") return _config(second, argv.slice(2), env);
  if (first === "card-url") return _cardUrl(argv.slice(1), env);
  if (first === "invoice-url") return _invoiceUrl(argv.slice(1), env);
  if (first === "webhook-secret") return _webhookSecret(argv.slice(1), env);
  if (first === "jobs") return _jobs(argv.slice(1), env);
  if (first === "indexes") return _indexes(argv.slice(1), env);
  if (first === "copy") return _copy(argv.slice(1));
  if (first === "export") return _export(argv.slice(1), env);
  if (first === "import") return _import(argv.slice(1), env);
  if (first === "seed") return _seed(argv.slice(1), env);
  if (first === "openapi") return _openapi(argv.slice(1));
  if (first === "backup") return _backup(argv.slice(1), env);
  if (first === "restore") return _restore(argv.slice(1), env);
  throw new UsageError(`unknown command "${first}": expected serve, flock add, user add, user revoke, card-url, invoice-url, webhook-secret, jobs, indexes, config apply, config show, copy, export, import, seed, openapi, backup or restore`);
}

/** Parses a TCP port: an integer 0 to 65535 (0 picks a free one). Throws `UsageError`. */
function parsePort(text: string, source: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) {
    throw new UsageError(`bad port ${JSON.stringify(text)} (${source}): expected an integer from 0 to 65535`);
  }
  return Number(text);
}

/** Most HTTP processes `serve --processes` starts. */
const MAX_PROCESSES = 256;

/**
 * `--processes`: a whole number from 1 to `MAX_PROCESSES`, or `auto` (one per core).
 *
 * @example
 * parseProcesses("auto") // os.availableParallelism(), e.g. 2
 */
function parseProcesses(text: string): number {
  if (text === "auto") return Math.min(MAX_PROCESSES, availableParallelism());
  if (!/^\d{1,3}$/.test(text) || Number(text) < 1 || Number(text) > MAX_PROCESSES) {
    throw new UsageError(`bad --processes ${JSON.stringify(text)}: expected a whole number from 1 to ${MAX_PROCESSES}, or auto (one per core)`);
  }
  return Number(text);
}

// --- internal ---

const DB = { db: { type: "string" } } as const;
const HELP = { help: { type: "boolean", short: "h" } } as const;

function _serve(args: string[], env: CliEnv): Command {
  const v = _parse(args, "serve", {
    ...DB,
    ...HELP,
    port: { type: "string" },
    host: { type: "string" },
    config: { type: "string" },
    quiet: { type: "boolean", short: "q" },
    processes: { type: "string" },
    clock: { type: "string" },
    "allow-existing-data": { type: "boolean" },
    "demo-data": { type: "boolean" },
  }, 0).values;
  if (v.help) return { kind: "help", text: USAGE.serve };
  const db = _db(v.db, env);
  const processes = v.processes === undefined ? FLAG_DEFAULTS.processes : parseProcesses(v.processes);
  if (processes > 1 && db === ":memory:") {
    throw new UsageError("--processes above 1 needs a database the processes share: a SQLite file or a PostgreSQL URL, not :memory:");
  }
  const clock = _clock(v.clock);
  // A manual clock lives in one process's memory: N processes would each keep their own time.
  if (processes > 1 && clock?.kind === "manual") {
    throw new UsageError("--clock manual runs one process: it cannot be used with --processes above 1");
  }
  const port = v.port !== undefined ? parsePort(v.port, "--port") : env.PORT ? parsePort(env.PORT, "env PORT") : FLAG_DEFAULTS.port;
  const host = v.host ?? (env.HOST || FLAG_DEFAULTS.host);
  if (host.trim() === "") throw new UsageError("bad host: --host must not be empty");
  return {
    kind: "serve",
    db,
    host,
    port,
    config: _nonEmpty(v.config, "--config"),
    quiet: v.quiet === true || env.RECORDS_LOG === "off",
    processes,
    clock,
    allowExistingData: v["allow-existing-data"],
    ...(v["demo-data"] ? { demoData: true } : {}),
  };
}

function _flockAdd(args: string[], env: CliEnv): Command {
  const { values: v, positionals } = _parse(args, "flock add", { ...DB, ...HELP, name: { type: "string" } }, 1);
  if (v.help) return { kind: "help", text: USAGE["flock add"] };
  const id = positionals[0];
  if (id === undefined) throw new UsageError("missing argument: records-service flock add ID [--name NAME]");
  if (!FLOCK_ID_RE.test(id)) {
    throw new UsageError(`bad flock identifier ${JSON.stringify(id)}: expected 1 to 63 of a-z 0-9 _ -, starting with a letter or digit`);
  }
  if (RESERVED_FLOCK_IDS.includes(id)) {
    throw new UsageError(`bad flock identifier ${JSON.stringify(id)}: reserved for a fixed path (${RESERVED_FLOCK_IDS.join(", ")})`);
  }
  const name = v.name === undefined ? id : v.name.trim();
  if (name === "") throw new UsageError("bad name: --name must not be empty");
  return { kind: "flock-add", db: _db(v.db, env), id, name };
}

function _userAdd(args: string[], env: CliEnv): Command {
  const { values: v, positionals } = _parse(
    args,
    "user add",
    { ...DB, ...HELP, password: { type: "string" }, flock: { type: "string", multiple: true }, role: { type: "string" } },
    1,
  );
  if (v.help) return { kind: "help", text: USAGE["user add"] };
  const username = positionals[0];
  if (username === undefined) throw new UsageError("missing argument: records-service user add USERNAME --password PW --flock ID");
  if (v.password === undefined || v.password === "") throw new UsageError("missing --password PW for user add");
  const flocks = v.flock ?? [];
  if (flocks.length === 0) throw new UsageError('missing --flock ID for user add (repeat it for several flocks; "*" for every flock)');
  const bad = flocks.find((f) => f !== "*" && !FLOCK_ID_RE.test(f));
  if (bad !== undefined) throw new UsageError(`bad flock identifier ${JSON.stringify(bad)} in --flock: expected a-z 0-9 _ - or "*"`);
  const role = v.role ?? "core";
  if (!(ROLES as readonly string[]).includes(role)) {
    throw new UsageError(`bad role ${JSON.stringify(role)}: expected ${ROLES.join(" or ")}`);
  }
  return { kind: "user-add", db: _db(v.db, env), username, password: v.password, flocks, role: role as Role };
}

function _userRevoke(args: string[], env: CliEnv): Command {
  const { values: v, positionals } = _parse(args, "user revoke", { ...DB, ...HELP, flock: { type: "string" } }, 1);
  if (v.help) return { kind: "help", text: USAGE["user revoke"] };
  const username = positionals[0];
  if (username === undefined || username.trim() === "") throw new UsageError("missing argument: records-service user revoke USERNAME [--flock ID] [--db PATH]");
  if (v.flock !== undefined && !FLOCK_ID_RE.test(v.flock)) {
    throw new UsageError(`bad flock identifier ${JSON.stringify(v.flock)} in --flock: expected 1 to 63 of a-z 0-9 _ -`);
  }
  return { kind: "user-revoke", db: _db(v.db, env), username, flock: v.flock };
}

function _cardUrl(args: string[], env: CliEnv): Command {
  const { values: v, positionals } = _parse(args, "card-url", { ...DB, ...HELP, "base-url": { type: "string" } }, 2);
  if (v.help) return { kind: "help", text: USAGE["card-url"] };
  const [flock, memberId] = positionals;
  if (flock === undefined || memberId === undefined) {
    throw new UsageError("missing argument: records-service card-url FLOCK MEMBER_ID [--db PATH] [--base-url URL]");
  }
  if (!FLOCK_ID_RE.test(flock)) throw new UsageError(`bad flock identifier ${JSON.stringify(flock)}: expected 1 to 63 of a-z 0-9 _ -`);
  if (!/^[0-9a-f]{24}$/.test(memberId)) throw new UsageError(`bad member id ${JSON.stringify(memberId)}: expected 24 lower-case hex characters`);
  const baseUrl = v["base-url"] ?? FLAG_DEFAULTS.baseUrl;
  if (!/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(baseUrl)) {
    throw new UsageError(`bad --base-url ${JSON.stringify(baseUrl)}: expected an http:// or https:// origin such as https://records.example.org`);
  }
  return { kind: "card-url", db: _db(v.db, env), flock, memberId, baseUrl };
}

function _invoiceUrl(args: string[], env: CliEnv): Command {
  const { values: v, positionals } = _parse(args, "invoice-url", { ...DB, ...HELP, "base-url": { type: "string" } }, 3);
  if (v.help) return { kind: "help", text: USAGE["invoice-url"] };
  const [flock, invoiceType, uid] = positionals;
  if (flock === undefined || invoiceType === undefined || uid === undefined) {
    throw new UsageError("missing argument: records-service invoice-url FLOCK TYPE UID [--db PATH] [--base-url URL]");
  }
  if (!FLOCK_ID_RE.test(flock)) throw new UsageError(`bad flock identifier ${JSON.stringify(flock)}: expected 1 to 63 of a-z 0-9 _ -`);
  if (!(INVOICE_TYPES as readonly string[]).includes(invoiceType)) throw new UsageError(`bad invoice type ${JSON.stringify(invoiceType)}: expected ${INVOICE_TYPES.join(", ")}`);
  if (!/^[0-9a-f]{24}$/.test(uid)) throw new UsageError(`bad id ${JSON.stringify(uid)}: expected 24 lower-case hex characters`);
  const baseUrl = v["base-url"] ?? FLAG_DEFAULTS.baseUrl;
  if (!/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(baseUrl)) {
    throw new UsageError(`bad --base-url ${JSON.stringify(baseUrl)}: expected an http:// or https:// origin such as https://records.example.org`);
  }
  return { kind: "invoice-url", db: _db(v.db, env), flock, invoiceType: invoiceType as InvoiceType, uid, baseUrl };
}

function _webhookSecret(args: string[], env: CliEnv): Command {
  const { values: v, positionals } = _parse(args, "webhook-secret", { ...DB, ...HELP, config: { type: "string" } }, 1);
  if (v.help) return { kind: "help", text: USAGE["webhook-secret"] };
  const flock = positionals[0];
  if (flock === undefined) throw new UsageError("missing argument: records-service webhook-secret FLOCK [--db PATH] [--config FILE]");
  if (!FLOCK_ID_RE.test(flock)) throw new UsageError(`bad flock identifier ${JSON.stringify(flock)}: expected 1 to 63 of a-z 0-9 _ -`);
  return { kind: "webhook-secret", db: _db(v.db, env), flock, config: _nonEmpty(v.config, "--config") };
}

/** Statuses `jobs --status` accepts, and the most jobs it lists. */
const _JOB_STATUSES: readonly OutboxStatus[] = ["pending", "held", "done", "dead"];
const _JOBS_MAX = 1000;

function _jobs(args: string[], env: CliEnv): Command {
  const { values: v } = _parse(
    args,
    "jobs",
    { ...DB, ...HELP, status: { type: "string" }, flock: { type: "string" }, limit: { type: "string" } },
    0,
  );
  if (v.help) return { kind: "help", text: USAGE.jobs };
  if (v.status !== undefined && !(_JOB_STATUSES as readonly string[]).includes(v.status)) {
    throw new UsageError(`bad --status ${JSON.stringify(v.status)}: expected ${_JOB_STATUSES.join(", ")}`);
  }
  if (v.flock !== undefined && !FLOCK_ID_RE.test(v.flock)) throw new UsageError(`bad flock identifier ${JSON.stringify(v.flock)} in --flock`);
  const limit = v.limit === undefined ? FLAG_DEFAULTS.jobsLimit : /^\d{1,4}$/.test(v.limit) ? Number(v.limit) : NaN;
  if (!(limit >= 1 && limit <= _JOBS_MAX)) throw new UsageError(`bad --limit ${JSON.stringify(v.limit)}: expected an integer from 1 to ${_JOBS_MAX}`);
  return { kind: "jobs", db: _db(v.db, env), status: v.status as OutboxStatus | undefined, flock: v.flock, limit };
}

const _INDEX_OPS = ["add", "drop", "reset"] as const;

function _indexes(args: string[], env: CliEnv): Command {
  const { values: v } = _parse(
    args,
    "indexes",
    { ...DB, ...HELP, flock: { type: "string" }, add: { type: "string" }, drop: { type: "string" }, reset: { type: "string" } },
    0,
  );
  if (v.help) return { kind: "help", text: USAGE.indexes };
  if (v.flock !== undefined && !FLOCK_ID_RE.test(v.flock)) throw new UsageError(`bad flock identifier ${JSON.stringify(v.flock)} in --flock`);
  const given = _INDEX_OPS.filter((op) => v[op] !== undefined);
  if (given.length > 1) throw new UsageError(`records-service indexes: ${given.map((op) => `--${op}`).join(" and ")} cannot be given together: one change at a time`);
  const op = given[0];
  if (op === undefined) return { kind: "indexes", db: _db(v.db, env), flock: v.flock, change: undefined };
  if (v.flock === undefined) throw new UsageError(`records-service indexes --${op} needs --flock F: an index is added, dropped or reset in one flock`);
  return { kind: "indexes", db: _db(v.db, env), flock: v.flock, change: { op, ..._typeField(v[op]!, `--${op}`) } };
}

/** `TYPE.FIELD` of `indexes --add|--drop|--reset`: a resource type name and a data field name. */
function _typeField(text: string, flag: string): { type: string; field: string } {
  const dot = text.indexOf(".");
  const type = dot < 0 ? "" : text.slice(0, dot);
  const field = dot < 0 ? "" : text.slice(dot + 1);
  if (!/^[a-z][a-z0-9_]{0,62}$/.test(type) || !FIELD_NAME_RE.test(field)) {
    throw new UsageError(`bad value: ${flag} ${JSON.stringify(text.slice(0, 80))}: expected TYPE.FIELD such as person.shoe_size (a resource type name, then a data field name: letters, digits and _)`);
  }
  return { type, field };
}

function _config(sub: string | undefined, args: string[], env: CliEnv): Command {
  if (sub === "--help" || sub === "-h") return { kind: "help", text: USAGE["config apply"] };
  if (sub === "apply") {
    const { values: v, positionals } = _parse(args, "config apply", { ...DB, ...HELP }, 1);
    if (v.help) return { kind: "help", text: USAGE["config apply"] };
    const file = positionals[0];
    if (file === undefined || file.trim() === "") throw new UsageError("missing argument: records-service config apply FILE [--db PATH]");
    return { kind: "config-apply", db: _db(v.db, env), file };
  }
  if (sub === "show") {
    const { values: v } = _parse(args, "config show", { ...DB, ...HELP }, 0);
    if (v.help) return { kind: "help", text: USAGE["config show"] };
    return { kind: "config-show", db: _db(v.db, env) };
  }
  throw new UsageError(
    sub === undefined ? "missing subcommand: records-service config apply FILE | config show" : `unknown subcommand "config ${sub}": expected "config apply" or "config show"`,
  );
}

/** parseArgs, strict, with at most `maxPositionals` arguments; its errors become one-line `UsageError`s. */
function _parse<O extends NonNullable<ParseArgsConfig["options"]>>(args: string[], command: string, options: O, maxPositionals: number) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (e) {
    // Node's message may go on with hints over several sentences and lines; keep the first.
    const first = String((e as Error).message).split(/\n|\. /)[0]!.replace(/\.$/, "");
    throw new UsageError(`records-service ${command}: ${first} (see records-service ${command} --help)`);
  }
  const extra = parsed.positionals[maxPositionals];
  if (extra !== undefined) throw new UsageError(`records-service ${command}: unexpected argument ${JSON.stringify(extra)}`);
  return parsed;
}

function _clock(text: string | undefined): ClockSetting | undefined {
  if (text === undefined) return undefined;
  const setting = parseClockSetting(text);
  if ("error" in setting) throw new UsageError(`bad value: --clock ${setting.error}`);
  return setting;
}

function _openapi(args: string[]): Command {
  if (_parse(args, "openapi", HELP, 0).values.help) return { kind: "help", text: USAGE.openapi };
  return { kind: "openapi" };
}

function _copy(args: string[]): Command {
  const v = _parse(args, "copy", { ...HELP, from: { type: "string" }, to: { type: "string" }, resume: { type: "boolean" }, batch: { type: "string" } }, 0).values;
  if (v.help) return { kind: "help", text: USAGE.copy };
  const from = _nonEmpty(v.from, "--from");
  const to = _nonEmpty(v.to, "--to");
  if (from === undefined || to === undefined) throw new UsageError("missing option: records-service copy --from PATH --to postgres://... [--resume]");
  if (!/^postgres(ql)?:\/\//i.test(to)) throw new UsageError(`bad value: --to must be a postgres:// URL, got ${JSON.stringify(to.slice(0, 40))}`);
  for (const [value, flag] of [[from, "--from"], [to, "--to"]] as const) {
    const problem = checkDbValue(value, flag);
    if (problem !== undefined) throw new UsageError(problem);
  }
  const batchSize = v.batch === undefined ? FLAG_DEFAULTS.copyBatch : Number(v.batch);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) {
    throw new UsageError(`bad value: --batch must be an integer from 1 to 10000, got ${JSON.stringify(v.batch)}`);
  }
  return { kind: "copy", from, to, resume: v.resume === true, batchSize };
}

function _export(args: string[], env: CliEnv): Command {
  const v = _parse(args, "export", { ...DB, ...HELP, flock: { type: "string" }, type: { type: "string" }, "include-deleted": { type: "boolean" }, format: { type: "string" } }, 0).values;
  if (v.help) return { kind: "help", text: USAGE.export };
  const flock = _flockOption(v.flock, "export --flock ID [--type T] [--include-deleted] [--format ndjson|csv] [--db PATH]");
  const format = v.format ?? "ndjson";
  if (format !== "ndjson" && format !== "csv") throw new UsageError(`bad value: --format must be ndjson or csv, got ${JSON.stringify(format)}`);
  const type = _typeOption(v.type);
  // A CSV holds one type (one header row), as import reads it.
  if (format === "csv" && type === undefined) throw new UsageError("records-service export --format csv needs --type T (a CSV file holds one type)");
  return { kind: "export", db: _db(v.db, env), flock, type, includeDeleted: v["include-deleted"] === true, format };
}

function _import(args: string[], env: CliEnv): Command {
  const { values: v, positionals } = _parse(
    args,
    "import",
    {
      ...DB,
      ...HELP,
      flock: { type: "string" },
      type: { type: "string" },
      events: { type: "boolean" },
      "no-events": { type: "boolean" },
      update: { type: "boolean" },
      config: { type: "string" },
      batch: { type: "string" },
    },
    1,
  );
  if (v.help) return { kind: "help", text: USAGE.import };
  const usage = "import FILE|- --flock ID [--type T] [--events|--no-events] [--update] [--db PATH]";
  const file = positionals[0];
  if (file === undefined || file === "") throw new UsageError(`missing argument: records-service ${usage}`);
  const flock = _flockOption(v.flock, usage);
  if (v.events && v["no-events"]) throw new UsageError("records-service import: --events and --no-events contradict each other");
  const batchSize = v.batch === undefined ? FLAG_DEFAULTS.importBatch : /^\d{1,5}$/.test(v.batch) ? Number(v.batch) : NaN;
  if (!(batchSize >= 1 && batchSize <= 10_000)) throw new UsageError(`bad value: --batch must be an integer from 1 to 10000, got ${JSON.stringify(v.batch)}`);
  return {
    kind: "import",
    db: _db(v.db, env),
    file,
    flock,
    type: _typeOption(v.type),
    events: v.events === true,
    update: v.update === true,
    config: _nonEmpty(v.config, "--config"),
    batchSize,
  };
}

function _seed(args: string[], env: CliEnv): Command {
  const v = _parse(args, "seed", { ...DB, ...HELP, flock: { type: "string" }, persons: { type: "string" }, seed: { type: "string" } }, 0).values;
  if (v.help) return { kind: "help", text: USAGE.seed };
  const flock = _flockOption(v.flock, "seed --flock ID [--persons N] [--seed S] [--db PATH]");
  const persons = v.persons === undefined ? 50 : /^\d{1,5}$/.test(v.persons) ? Number(v.persons) : NaN;
  if (!(persons >= 1 && persons <= 10_000)) throw new UsageError(`bad value: --persons must be an integer from 1 to 10000, got ${JSON.stringify(v.persons)}`);
  const seed = v.seed === undefined ? 1 : /^\d{1,9}$/.test(v.seed) ? Number(v.seed) : NaN;
  if (!Number.isInteger(seed)) throw new UsageError(`bad value: --seed must be an integer from 0 to 999999999, got ${JSON.stringify(v.seed)}`);
  return { kind: "seed", db: _db(v.db, env), flock, persons, seed };
}

function _backup(args: string[], env: CliEnv): Command {
  const v = _parse(args, "backup", { ...DB, ...HELP, to: { type: "string" }, keep: { type: "string" } }, 0).values;
  if (v.help) return { kind: "help", text: USAGE.backup };
  const to = _nonEmpty(v.to, "--to");
  if (to === undefined) throw new UsageError("missing option: records-service backup --to DIR [--db FILE] [--keep N]");
  const keep = v.keep === undefined ? CONFIG_DEFAULTS.backup.keep : /^\d{1,5}$/.test(v.keep) ? Number(v.keep) : NaN;
  if (!(keep >= 1 && keep <= MAX_BACKUPS_KEPT)) throw new UsageError(`bad value: --keep must be an integer from 1 to ${MAX_BACKUPS_KEPT}, got ${JSON.stringify(v.keep)}`);
  const db = _db(v.db, env);
  if (db === ":memory:") throw new UsageError("records-service backup: :memory: lives only in its own process; give the SQLite file to back up with --db FILE");
  return { kind: "backup", db, to, keep };
}

function _restore(args: string[], env: CliEnv): Command {
  const { values: v, positionals } = _parse(args, "restore", { ...DB, ...HELP, force: { type: "boolean" } }, 1);
  if (v.help) return { kind: "help", text: USAGE.restore };
  const file = positionals[0];
  if (file === undefined || file.trim() === "") throw new UsageError("missing argument: records-service restore FILE [--db FILE] [--force]");
  const db = _db(v.db, env);
  if (db === ":memory:") throw new UsageError("records-service restore: :memory: lives only in its own process; give the SQLite file to restore into with --db FILE");
  return { kind: "restore", db, file, force: v.force === true };
}

function _flockOption(value: string | undefined, usage: string): string {
  if (value === undefined) throw new UsageError(`missing option: records-service ${usage}`);
  if (!FLOCK_ID_RE.test(value)) throw new UsageError(`bad flock identifier ${JSON.stringify(value)} in --flock`);
  return value;
}

function _typeOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[a-z][a-z0-9_]{0,62}$/.test(value)) throw new UsageError(`bad --type ${JSON.stringify(value)}: expected a resource type name such as person`);
  return value;
}

/**
 * `--db`, else `DATABASE_URL` (when not empty), else the default file. A value that looks
 * like a URL but is not a PostgreSQL one is refused (db-value), never taken for a path.
 */
function _db(value: string | undefined, env: CliEnv): string {
  const flag = _nonEmpty(value, "--db");
  const db = flag ?? (env.DATABASE_URL?.trim() || FLAG_DEFAULTS.db);
  const problem = checkDbValue(db, flag !== undefined ? "--db" : "DATABASE_URL");
  if (problem !== undefined) throw new UsageError(problem);
  return db;
}

function _nonEmpty(value: string | undefined, flag: string): string | undefined {
  if (value !== undefined && value.trim() === "") throw new UsageError(`bad value: ${flag} must not be empty`);
  return value;
}
