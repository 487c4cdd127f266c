import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { FLAG_DEFAULTS } from "../config/schema.js";
import { parseCommand, UsageError } from "./args.js";
import { DB_FORMS } from "../db-value.js";
import { USAGE } from "./usage.js";

describe("parseCommand", () => {
  it.each([
    {
      name: "serve with defaults",
      argv: ["serve"],
      env: {},
      expected: { kind: "serve", db: FLAG_DEFAULTS.db, host: "127.0.0.1", port: 8080, config: undefined, quiet: false, processes: 1 },
    },
    {
      name: "serve with every flag",
      argv: ["serve", "--db", ":memory:", "--port", "0", "--host", "0.0.0.0", "--config", "c.json", "--quiet"],
      env: {},
      expected: { kind: "serve", db: ":memory:", host: "0.0.0.0", port: 0, config: "c.json", quiet: true, processes: 1 },
    },
    {
      name: "serve with --flag=value",
      argv: ["serve", "--port=9000", "-q"],
      env: {},
      expected: { kind: "serve", db: FLAG_DEFAULTS.db, host: "127.0.0.1", port: 9000, config: undefined, quiet: true, processes: 1 },
    },
    {
      name: "serve takes HOST and PORT from the environment",
      argv: ["serve"],
      env: { HOST: "::1", PORT: "3000" },
      expected: { kind: "serve", db: FLAG_DEFAULTS.db, host: "::1", port: 3000, config: undefined, quiet: false, processes: 1 },
    },
    {
      name: "flags win over the environment; RECORDS_LOG=off is quiet",
      argv: ["serve", "--port", "4000", "--host", "localhost"],
      env: { HOST: "::1", PORT: "3000", RECORDS_LOG: "off" },
      expected: { kind: "serve", db: FLAG_DEFAULTS.db, host: "localhost", port: 4000, config: undefined, quiet: true, processes: 1 },
    },
    {
      name: "serve with --processes",
      argv: ["serve", "--processes", "3", "--db", "x.db"],
      env: {},
      expected: { kind: "serve", db: "x.db", host: "127.0.0.1", port: 8080, config: undefined, quiet: false, processes: 3 },
    },
    {
      name: "serve with --processes auto: one per core",
      argv: ["serve", "--processes=auto"],
      env: {},
      expected: { kind: "serve", db: FLAG_DEFAULTS.db, host: "127.0.0.1", port: 8080, config: undefined, quiet: false, processes: availableParallelism() },
    },
    {
      name: "serve --clock manual at a time, or at the start",
      argv: ["serve", "--clock", "manual=2026-01-01T00:00:00Z"],
      env: {},
      expected: { kind: "serve", db: FLAG_DEFAULTS.db, host: "127.0.0.1", port: 8080, config: undefined, quiet: false, processes: 1, clock: { kind: "manual", start: new Date("2026-01-01T00:00:00Z") } },
    },
    {
      name: "serve --clock manual",
      argv: ["serve", "--clock=manual"],
      env: {},
      expected: { kind: "serve", db: FLAG_DEFAULTS.db, host: "127.0.0.1", port: 8080, config: undefined, quiet: false, processes: 1, clock: { kind: "manual", start: undefined } },
    },
    {
      name: "flock add with a name",
      argv: ["flock", "add", "club", "--name", "The Club", "--db", "x.db"],
      env: {},
      expected: { kind: "flock-add", db: "x.db", id: "club", name: "The Club" },
    },
    {
      name: "DATABASE_URL stands in for --db",
      argv: ["flock", "add", "club"],
      env: { DATABASE_URL: "postgres://app@db:5432/records" },
      expected: { kind: "flock-add", db: "postgres://app@db:5432/records", id: "club", name: "club" },
    },
    {
      name: "--db wins over DATABASE_URL",
      argv: ["flock", "add", "club", "--db", "x.db"],
      env: { DATABASE_URL: "postgres://app@db:5432/records" },
      expected: { kind: "flock-add", db: "x.db", id: "club", name: "club" },
    },
    {
      name: "flock add names the flock after its id by default",
      argv: ["flock", "add", "a-1_b"],
      env: {},
      expected: { kind: "flock-add", db: FLAG_DEFAULTS.db, id: "a-1_b", name: "a-1_b" },
    },
    {
      name: "user add with several flocks",
      argv: ["user", "add", "ada@example.org", "--password", "a long password", "--flock", "a", "--flock", "b", "--role", "self-service"],
      env: {},
      expected: { kind: "user-add", db: FLAG_DEFAULTS.db, username: "ada@example.org", password: "a long password", flocks: ["a", "b"], role: "self-service" },
    },
    {
      name: "user add with every flock, default role",
      argv: ["user", "add", "root", "--flock", "*", "--password", "a long password", "--db", ":memory:"],
      env: {},
      expected: { kind: "user-add", db: ":memory:", username: "root", password: "a long password", flocks: ["*"], role: "core" },
    },
    {
      name: "user revoke of a core user",
      argv: ["user", "revoke", "Ada@Example.org", "--db", "x.db"],
      env: {},
      expected: { kind: "user-revoke", db: "x.db", username: "Ada@Example.org", flock: undefined },
    },
    {
      name: "user revoke of a flock's member",
      argv: ["user", "revoke", "ada@example.org", "--flock", "demo"],
      env: {},
      expected: { kind: "user-revoke", db: FLAG_DEFAULTS.db, username: "ada@example.org", flock: "demo" },
    },
    {
      name: "user revoke on DATABASE_URL",
      argv: ["user", "revoke", "ada"],
      env: { DATABASE_URL: "postgres://app@db:5432/records" },
      expected: { kind: "user-revoke", db: "postgres://app@db:5432/records", username: "ada", flock: undefined },
    },
    {
      name: "webhook-secret on DATABASE_URL",
      argv: ["webhook-secret", "club"],
      env: { DATABASE_URL: "postgres://app@db:5432/records" },
      expected: { kind: "webhook-secret", db: "postgres://app@db:5432/records", flock: "club", config: undefined },
    },
    {
      name: "export with its options",
      argv: ["export", "--flock", "demo", "--type", "membership", "--include-deleted", "--db", "x.db"],
      env: {},
      expected: { kind: "export", db: "x.db", flock: "demo", type: "membership", includeDeleted: true, format: "ndjson" },
    },
    {
      name: "import from stdin with its defaults",
      argv: ["import", "-", "--flock", "demo"],
      env: {},
      expected: { kind: "import", db: "./data/records.db", file: "-", flock: "demo", type: undefined, events: false, update: false, config: undefined, batchSize: 5000 },
    },
    {
      name: "import with events and update",
      argv: ["import", "people.csv", "--flock", "demo", "--events", "--update", "--batch", "500", "--config", "c.json"],
      env: {},
      expected: { kind: "import", db: "./data/records.db", file: "people.csv", flock: "demo", type: undefined, events: true, update: true, config: "c.json", batchSize: 500 },
    },
    {
      name: "backup with its defaults",
      argv: ["backup", "--to", "./backups"],
      env: {},
      expected: { kind: "backup", db: "./data/records.db", to: "./backups", keep: 7 },
    },
    {
      name: "backup of a PostgreSQL URL (refused when run, with the pg_dump line)",
      argv: ["backup", "--to", "b", "--keep", "3"],
      env: { DATABASE_URL: "postgres://app@db/records" },
      expected: { kind: "backup", db: "postgres://app@db/records", to: "b", keep: 3 },
    },
    {
      name: "restore with --force",
      argv: ["restore", "b/records-2026-11-28T05-00-00Z.db", "--db", "x.db", "--force"],
      env: {},
      expected: { kind: "restore", db: "x.db", file: "b/records-2026-11-28T05-00-00Z.db", force: true },
    },
    {
      name: "serve --clock manual --allow-existing-data",
      argv: ["serve", "--clock", "manual", "--allow-existing-data"],
      env: {},
      expected: { kind: "serve", db: FLAG_DEFAULTS.db, host: "127.0.0.1", port: 8080, config: undefined, quiet: false, processes: 1, clock: { kind: "manual", start: undefined }, allowExistingData: true },
    },
    {
      name: "config apply",
      argv: ["config", "apply", "records.json", "--db", "x.db"],
      env: {},
      expected: { kind: "config-apply", db: "x.db", file: "records.json" },
    },
    {
      name: "config show with DATABASE_URL",
      argv: ["config", "show"],
      env: { DATABASE_URL: "postgres://root@127.0.0.1:5432/records" },
      expected: { kind: "config-show", db: "postgres://root@127.0.0.1:5432/records" },
    },
  ])("parses $name", ({ argv, env, expected }) => {
    expect(parseCommand(argv, env)).toEqual(expected);
  });

  it.each([
    { argv: ["--help"], text: USAGE.main },
    { argv: ["-h"], text: USAGE.main },
    { argv: ["help"], text: USAGE.main },
    { argv: ["serve", "--help"], text: USAGE.serve },
    { argv: ["flock", "--help"], text: USAGE["flock add"] },
    { argv: ["flock", "add", "-h"], text: USAGE["flock add"] },
    { argv: ["user", "add", "--help"], text: USAGE["user add"] },
    { argv: ["user", "revoke", "--help"], text: USAGE["user revoke"] },
    { argv: ["import", "--help"], text: USAGE.import },
    { argv: ["export", "-h"], text: USAGE.export },
    { argv: ["backup", "--help"], text: USAGE.backup },
    { argv: ["restore", "-h"], text: USAGE.restore },
    { argv: ["config", "--help"], text: USAGE["config apply"] },
    { argv: ["config", "apply", "-h"], text: USAGE["config apply"] },
    { argv: ["config", "show", "--help"], text: USAGE["config show"] },
    { argv: ["seed", "--help"], text: USAGE.seed },
  ])("gives help for $argv", ({ argv, text }) => {
    expect(parseCommand(argv, {})).toEqual({ kind: "help", text });
  });

  it.each([
    { argv: ["copy", "--from", "a.db"], message: "missing option: records-service copy --from PATH --to postgres://... [--resume]" },
    { argv: ["seed"], message: "missing option: records-service seed --flock ID [--persons N] [--seed S] [--db PATH]" },
    { argv: ["seed", "--flock", "Bad Id"], message: 'bad flock identifier "Bad Id" in --flock' },
    { argv: ["seed", "--flock", "demo", "--persons", "0"], message: 'bad value: --persons must be an integer from 1 to 10000, got "0"' },
    { argv: ["seed", "--flock", "demo", "--persons", "10001"], message: 'bad value: --persons must be an integer from 1 to 10000, got "10001"' },
    { argv: ["seed", "--flock", "demo", "--seed=1.5"], message: 'bad value: --seed must be an integer from 0 to 999999999, got "1.5"' },
    { argv: ["copy", "--from", "a.db", "--to", "b.db"], message: 'bad value: --to must be a postgres:// URL, got "b.db"' },
    { argv: ["copy", "--from", "a.db", "--to", "postgres://h/d", "--batch", "0"], message: 'bad value: --batch must be an integer from 1 to 10000, got "0"' },
    { argv: ["invoice-url", "demo", "receipt", "0123456789abcdef01234567"], message: 'bad invoice type "receipt": expected invoice, membership, order' },
    { argv: ["invoice-url", "demo", "order"], message: "missing argument: records-service invoice-url FLOCK TYPE UID [--db PATH] [--base-url URL]" },
    { argv: ["invoice-url", "demo", "order", "xyz"], message: 'bad id "xyz": expected 24 lower-case hex characters' },
    { argv: ["start"], message: 'unknown command "start": expected serve, flock add, user add, user revoke, card-url, invoice-url, webhook-secret, jobs, indexes, config apply, config show, copy, export, import, seed, openapi, backup or restore' },
    { argv: [], message: "missing command: records-service serve|flock add|user add|user revoke|card-url|invoice-url|webhook-secret|jobs|indexes|config apply|config show|copy|export|import|seed|openapi|backup|restore (see --help)" },
    { argv: ["backup"], message: "missing option: records-service backup --to DIR [--db FILE] [--keep N]" },
    { argv: ["backup", "--to", "b", "--keep", "0"], message: 'bad value: --keep must be an integer from 1 to 10000, got "0"' },
    { argv: ["backup", "--to", "b", "--keep", "two"], message: 'bad value: --keep must be an integer from 1 to 10000, got "two"' },
    { argv: ["backup", "--to", "b", "--db", ":memory:"], message: "records-service backup: :memory: lives only in its own process; give the SQLite file to back up with --db FILE" },
    { argv: ["backup", "--to", "b", "--db", "postgres:/x"], message: `bad --db "postgres:/x": not a valid PostgreSQL URL; ${DB_FORMS}` },
    { argv: ["restore"], message: "missing argument: records-service restore FILE [--db FILE] [--force]" },
    { argv: ["restore", "a.db", "b.db"], message: 'records-service restore: unexpected argument "b.db"' },
    { argv: ["serve", "--clock", "later"], message: 'bad value: --clock must be system, manual or manual=YYYY-MM-DDTHH:MM:SSZ, not "later"' },
    { argv: ["serve", "--clock", "manual=2026-02-31T00:00:00Z"], message: 'bad value: --clock must be system, manual or manual=YYYY-MM-DDTHH:MM:SSZ, not "manual=2026-02-31T00:00:00Z"' },
    { argv: ["serve", "--db", "x.db", "--processes", "2", "--clock", "manual"], message: "--clock manual runs one process: it cannot be used with --processes above 1" },
    { argv: ["export"], message: "missing option: records-service export --flock ID [--type T] [--include-deleted] [--format ndjson|csv] [--db PATH]" },
    { argv: ["export", "--flock", "demo", "--format", "xlsx"], message: 'bad value: --format must be ndjson or csv, got "xlsx"' },
    { argv: ["export", "--flock", "demo", "--format", "csv"], message: "records-service export --format csv needs --type T (a CSV file holds one type)" },
    { argv: ["export", "--flock", "demo", "--type", "Person!"], message: 'bad --type "Person!": expected a resource type name such as person' },
    { argv: ["import", "--flock", "demo"], message: "missing argument: records-service import FILE|- --flock ID [--type T] [--events|--no-events] [--update] [--db PATH]" },
    { argv: ["import", "a.csv", "b.csv", "--flock", "demo"], message: 'records-service import: unexpected argument "b.csv"' },
    { argv: ["import", "a.csv", "--flock", "demo", "--events", "--no-events"], message: "records-service import: --events and --no-events contradict each other" },
    { argv: ["import", "a.csv", "--flock", "demo", "--batch", "0"], message: 'bad value: --batch must be an integer from 1 to 10000, got "0"' },
    { argv: ["flock"], message: "missing subcommand: records-service flock add ..." },
    { argv: ["user", "remove", "x"], message: 'unknown subcommand "user remove": expected "user add" or "user revoke"' },
    { argv: ["flock", "remove", "x"], message: 'unknown subcommand "flock remove": expected "flock add"' },
    { argv: ["user", "revoke"], message: "missing argument: records-service user revoke USERNAME [--flock ID] [--db PATH]" },
    { argv: ["user", "revoke", "ada", "bob"], message: 'records-service user revoke: unexpected argument "bob"' },
    { argv: ["user", "revoke", "ada", "--flock", "Bad"], message: 'bad flock identifier "Bad" in --flock: expected 1 to 63 of a-z 0-9 _ -' },
    { argv: ["serve", "--verbose"], message: "records-service serve: Unknown option '--verbose' (see records-service serve --help)" },
    { argv: ["serve", "--port"], message: "records-service serve: Option '--port <value>' argument missing (see records-service serve --help)" },
    { argv: ["serve", "--db", "--port", "1"], message: "records-service serve: Option '--db' argument is ambiguous (see records-service serve --help)" },
    { argv: ["serve", "extra"], message: 'records-service serve: unexpected argument "extra"' },
    { argv: ["serve", "--port", "http"], message: 'bad port "http" (--port): expected an integer from 0 to 65535' },
    { argv: ["serve", "--port", "65536"], message: 'bad port "65536" (--port): expected an integer from 0 to 65535' },
    { argv: ["serve", "--port", "-1"], message: "records-service serve: Option '--port' argument is ambiguous (see records-service serve --help)" },
    { argv: ["serve", "--port", "80.5"], message: 'bad port "80.5" (--port): expected an integer from 0 to 65535' },
    { argv: ["serve", "--host", ""], message: "bad host: --host must not be empty" },
    { argv: ["serve", "--processes", "0"], message: 'bad --processes "0": expected a whole number from 1 to 256, or auto (one per core)' },
    { argv: ["serve", "--processes", "257"], message: 'bad --processes "257": expected a whole number from 1 to 256, or auto (one per core)' },
    { argv: ["serve", "--processes", "2.5"], message: 'bad --processes "2.5": expected a whole number from 1 to 256, or auto (one per core)' },
    { argv: ["serve", "--processes", "all"], message: 'bad --processes "all": expected a whole number from 1 to 256, or auto (one per core)' },
    { argv: ["serve", "--processes="], message: 'bad --processes "": expected a whole number from 1 to 256, or auto (one per core)' },
    {
      argv: ["serve", "--processes", "2", "--db", ":memory:"],
      message: "--processes above 1 needs a database the processes share: a SQLite file or a PostgreSQL URL, not :memory:",
    },
    { argv: ["serve", "--db", ""], message: "bad value: --db must not be empty" },
    { argv: ["serve", "--db", "postgres:/bad"], message: `bad --db "postgres:/bad": not a valid PostgreSQL URL; ${DB_FORMS}` },
    { argv: ["jobs", "--db", "postgresql//x"], message: `bad --db "postgresql//x": not a valid PostgreSQL URL; ${DB_FORMS}` },
    { argv: ["copy", "--from", "file:a.db", "--to", "postgres://h/d"], message: `bad --from "file:a.db": give a SQLite file as a plain path (./data/records.db), not a file: URL; ${DB_FORMS}` },
    { argv: ["serve", "--config="], message: "bad value: --config must not be empty" },
    { argv: ["config"], message: "missing subcommand: records-service config apply FILE | config show" },
    { argv: ["config", "edit"], message: 'unknown subcommand "config edit": expected "config apply" or "config show"' },
    { argv: ["config", "apply"], message: "missing argument: records-service config apply FILE [--db PATH]" },
    { argv: ["config", "apply", "a.json", "b.json"], message: 'records-service config apply: unexpected argument "b.json"' },
    { argv: ["config", "show", "a.json"], message: 'records-service config show: unexpected argument "a.json"' },
    { argv: ["flock", "add"], message: "missing argument: records-service flock add ID [--name NAME]" },
    { argv: ["flock", "add", "Demo"], message: 'bad flock identifier "Demo": expected 1 to 63 of a-z 0-9 _ -, starting with a letter or digit' },
    { argv: ["flock", "add", "_x"], message: 'bad flock identifier "_x": expected 1 to 63 of a-z 0-9 _ -, starting with a letter or digit' },
    { argv: ["flock", "add", "a".repeat(64)], message: `bad flock identifier "${"a".repeat(64)}": expected 1 to 63 of a-z 0-9 _ -, starting with a letter or digit` },
    { argv: ["flock", "add", "ping"], message: 'bad flock identifier "ping": reserved for a fixed path (auth, health, ping, selfservice)' },
    { argv: ["flock", "add", "a", "b"], message: 'records-service flock add: unexpected argument "b"' },
    { argv: ["flock", "add", "a", "--name", " "], message: "bad name: --name must not be empty" },
    { argv: ["user", "add"], message: "missing argument: records-service user add USERNAME --password PW --flock ID" },
    { argv: ["user", "add", "ada", "--flock", "demo"], message: "missing --password PW for user add" },
    { argv: ["user", "add", "ada", "--password", "a long password"], message: 'missing --flock ID for user add (repeat it for several flocks; "*" for every flock)' },
    { argv: ["user", "add", "ada", "--password", "a long password", "--flock", "Bad"], message: 'bad flock identifier "Bad" in --flock: expected a-z 0-9 _ - or "*"' },
    { argv: ["user", "add", "ada", "--password", "a long password", "--flock", "a", "--role", "admin"], message: 'bad role "admin": expected core or self-service' },
  ])("refuses $argv", ({ argv, message }) => {
    expect(() => parseCommand(argv, {})).toThrow(new UsageError(message));
  });

  it.each([
    { env: { PORT: "eighty" }, message: 'bad port "eighty" (env PORT): expected an integer from 0 to 65535' },
    { env: { PORT: "99999" }, message: 'bad port "99999" (env PORT): expected an integer from 0 to 65535' },
  ])("refuses a bad PORT in the environment: $env.PORT", ({ env, message }) => {
    expect(() => parseCommand(["serve"], env)).toThrow(new UsageError(message));
  });

  it("refuses a DATABASE_URL that is not a URL it can open, naming the variable", () => {
    expect(() => parseCommand(["serve"], { DATABASE_URL: "postgress://db/records" })).toThrow(
      new UsageError(`bad DATABASE_URL "postgress://db/records": not a valid PostgreSQL URL; ${DB_FORMS}`),
    );
    expect(parseCommand(["jobs"], { DATABASE_URL: "postgres://db/records" })).toMatchObject({ db: "postgres://db/records" });
  });

  it("keeps every usage message on one line", () => {
    const lines: string[] = [];
    for (const argv of [["serve", "--db", "--x"], ["serve", "--nope"], ["flock", "add", "A"]]) {
      try {
        parseCommand(argv, {});
      } catch (e) {
        lines.push((e as Error).message);
      }
    }
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).not.toContain("\n");
  });
});
