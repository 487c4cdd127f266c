/**
 * @module cli/usage
 * The `--help` texts, one per command. The defaults they name are config/schema's.
 */
import { CONFIG_DEFAULTS, FLAG_DEFAULTS } from "../config/schema.js";

const SERVE = `Usage: records-service serve [--db PATH|:memory:] [--port N] [--host H] [--config FILE] [--processes N|auto] [--quiet] [--clock manual[=ISO] [--allow-existing-data]] [--demo-data]

Serves the Records Service API over HTTP.

  --db PATH|URL   SQLite file, created with its folder if missing (default $DATABASE_URL or
                  ${FLAG_DEFAULTS.db}); :memory: keeps everything in memory until the process
                  ends; postgres://user@host:5432/name uses PostgreSQL (migrated at start).
                  A value that looks like a URL but is not a PostgreSQL one (postgres:/x,
                  postgresql//x, mysql://..., file:...) is refused (exit 2)
  --port N        TCP port, 0 picks a free one (default $PORT or ${FLAG_DEFAULTS.port})
  --host H        interface to listen on (default $HOST or ${FLAG_DEFAULTS.host})
  --config FILE   JSON config applied at start (as config apply does): secret, flocks,
                  users, templates, triggers, scheduler, webhooks, throttle, database, mail;
                  without it, the configuration last applied to the database is used
  --processes N   HTTP processes on the one port over the one database (a file or
                  PostgreSQL, not :memory:), 1 to 256; auto: one per core (default ${FLAG_DEFAULTS.processes}).
                  A process that ends is replaced; access log lines then name their pid
  --quiet, -q     no access log (also: RECORDS_LOG=off)
  --clock manual[=2026-01-01T00:00:00Z]
                  emulator mode: the service's time stands still (at that UTC time, default
                  now) and moves only through POST /api/v1/_clock/advance/ (admin keys),
                  which runs everything due in between; --clock system (default) is real time.
                  A database that holds records is refused (exit 2): use --db :memory: or
                  a scratch file
  --allow-existing-data
                  run the manual clock on a database that holds records anyway
  --demo-data     fill flock "demo" with 50 sample people, their memberships, payments
                  and bookings (as records-service seed does) when it holds no person yet

On an empty database it creates flock "demo" and user "admin" with a random password,
printed once. SIGTERM or SIGINT stops it gracefully (every process finishes the requests
it has in flight). A port in use ends the start with one line (exit 1).`;

const FLOCK_ADD = `Usage: records-service flock add ID [--name NAME] [--db PATH]

Creates a flock (a tenant). ID: 1 to 63 of a-z 0-9 _ -, starting with a letter or digit.
NAME defaults to ID. Fails (exit 1) if the flock exists.`;

const USER_ADD = `Usage: records-service user add USERNAME --password PW --flock ID [--flock ID ...] [--role core|self-service] [--db PATH]

Creates the user, or replaces the one with this username, with access to the named flocks
(--flock "*" for every flock). The flocks must exist (exit 1 otherwise). Passwords are 8 to
1024 characters. A new password ends every key and session the user had. A self-service
user gets one member account per flock (as POST /api/v1/{flock}/user/ makes them), and a
core user of the same name is disabled.`;

const USER_REVOKE = `Usage: records-service user revoke USERNAME [--flock ID] [--db PATH]

Ends every API key and session of the user at once (the password stays). With --flock,
the user is that flock's self-service member USERNAME (an email address). Fails (exit 1)
for an unknown user.`;

const CARD_URL = `Usage: records-service card-url FLOCK MEMBER_ID [--db PATH] [--base-url URL]

Prints the signed card link of a member record (GET /api/v2/FLOCK/member/MEMBER_ID/card/),
signed with the card key derived from the database's secret. --base-url is the server's
public origin (default ${FLAG_DEFAULTS.baseUrl}). Fails (exit 1) if the flock or the member
does not exist.`;

const INVOICE_URL = `Usage: records-service invoice-url FLOCK TYPE UID [--db PATH] [--base-url URL]

Prints the signed link of an invoice (GET /invoices/v2/FLOCK/TYPE/UID/SIGNATURE), which
opens without a key. TYPE is invoice (an invoice record), membership (a member or
membership record) or order (any ticket of the order). Signed with the invoice key derived
from the database's secret. --base-url is the server's public origin (default
${FLAG_DEFAULTS.baseUrl}). Fails (exit 1) if the flock or the record does not exist.`;

const WEBHOOK_SECRET = `Usage: records-service webhook-secret FLOCK [--db PATH] [--config FILE]

Prints the key that signs the flock's webhook deliveries (whsec_ and base64), the one to
give that flock's receivers; it signs nothing else. It is derived from the secret: the
config file's "secret" when --config names one, else the database's; a new secret gives
every flock a new key. Fails (exit 1) if the flock is in neither.`;

const JOBS = `Usage: records-service jobs [--db PATH] [--status pending|held|done|dead] [--flock ID] [--limit N]

Lists the outbox (webhook deliveries and emails queued by triggers), newest first, with
their attempts: status, attempts, next attempt, last HTTP status and last error. A held
job's trigger is missing or inactive in the applied configuration: it is delivered once
the trigger is back (records-service config apply); dead means the receiver never
accepted it within the retry window.
--limit defaults to ${FLAG_DEFAULTS.jobsLimit} (at most 1000).`;

const CONFIG_APPLY = `Usage: records-service config apply FILE [--db PATH]

Applies a JSON config file (the form serve --config reads) to the database: the secret,
flocks and users are written, and the whole configuration (triggers, templates, resource
types, limits and the other settings) is stored as the applied configuration, a new
revision when it differs from the one in force. Every running server on the database takes
it up within seconds, without restart; a server started without --config runs with it.
A bad file changes nothing (exit 1, naming the key).`;

const CONFIG_SHOW = `Usage: records-service config show [--db PATH]

Prints the configuration applied to the database as JSON: its revision, when it was
applied and from which file, and the configuration itself with secrets redacted (the
secret, users' passwords, credentials in the SMTP URL and in webhook URLs). Exit 1 when
no configuration was ever applied.`;

const COPY = `Usage: records-service copy --from PATH --to postgres://user@host:5432/name [--resume] [--batch N]

Copies a SQLite database into PostgreSQL: flocks, users (member accounts too) and keys
with their lifetimes, settings (the secret), records with their versions and states, files,
data events, tasks and outbox jobs, in batches of N records per transaction (default ${FLAG_DEFAULTS.copyBatch}),
with a progress bar on stderr. Login-failure counters are not copied. A file an older
version wrote is copied as this version's migrations leave it (from a temporary snapshot;
the file is never changed). The target must be empty; after an interruption, run it again
with --resume: it goes on where it stopped and never copies anything twice. Ends by
comparing the records per flock, type and state (exit 1 on a difference).`;

const EXPORT = `Usage: records-service export --flock ID [--type T] [--include-deleted] [--format ndjson|csv] [--db PATH]

Writes the flock's records to stdout as NDJSON (the default), one record envelope a line:
  {"type":"person","id":"…","state":"updated","created":"…","last_updated":"…","version":1,"data":{…}}
type by type (every type clients write; data events and tasks only with --type), each in
insertion order. The same records always give the same bytes, and the output imports back
to the same records. --include-deleted adds deleted records.
  --format csv     one type (--type is required): a header row (type, id, state, created,
                   last_updated, version, then the fields: a person's schema fields, another
                   type's every field its records hold), one record a row, as import reads
                   CSV: list entries joined by ";" (a JSON array when an entry holds a ";"),
                   other values that are not text as JSON.`;

const IMPORT = `Usage: records-service import FILE|- --flock ID [--type T] [--events|--no-events] [--update] [--db PATH] [--config FILE] [--batch N]

Reads records from FILE (or stdin with -) and writes them into the flock in transactions of
N rows (default ${FLAG_DEFAULTS.importBatch}), with a progress bar on stderr. NDJSON (one JSON object a line: an
export envelope, or the fields of a record) or CSV (a header row of field names; list
fields' entries joined by ";", or a JSON array for entries that hold a ";"); the format
comes from the file name (.csv, .ndjson, .jsonl), else from the first character.
  --type T         the type of rows that name none (default person); rows naming another
                   type are refused
  --update         update records whose id is stored (default: skip them)
  --events         record each write's data event and queue its triggers' actions (the
                   triggers of --config FILE); default --no-events
Ids, states, created, last_updated and versions in the rows are kept; rows without an id
get a new one. Every refused row is reported on stderr with its line and reason; a
transaction that cannot be written refuses all its rows. Prints the counts at the end.
Exit 0 when every row was written or skipped, 1 when any row was refused.`;
const OPENAPI = `Usage: records-service openapi

Prints the OpenAPI 3.1 document (JSON) that GET /api/openapi.json serves: every path, its
parameters, bodies, answers and errors. Opens no database.`;

const BACKUP = `Usage: records-service backup --to DIR [--db FILE] [--keep N]

Makes a consistent copy of a SQLite database while servers keep serving it (SQLite's
backup API, from one snapshot), checks it (PRAGMA integrity_check, and the records per
flock equal the database's at that snapshot), and names it by its UTC time in DIR:
records-2026-11-28T05-00-00Z.db, one file. Then removes all but the newest N backups
of that form in DIR (default ${CONFIG_DEFAULTS.backup.keep}; other files are never touched). Prints the file, its size
and the counts. Exit 1 if the copy does not check out (nothing is left behind).
For a PostgreSQL --db it backs up nothing and prints the pg_dump command to use (exit 2).
The config file's "backup" section runs it on a schedule (see the README).`;

const RESTORE = `Usage: records-service restore FILE [--db FILE] [--force]

Puts a backup back into the SQLite database --db (default $DATABASE_URL or
${FLAG_DEFAULTS.db}). FILE is checked first (integrity_check, a Records Service database);
a target that holds flocks, users or records is refused (exit 2) unless --force is given.
The pages are written through SQLite's backup API, so a process with the target open
never sees half of it; stop the servers first all the same. A backup from an older
version is migrated forward. For a PostgreSQL --db it prints pg_restore (exit 2).`;

const SEED = `Usage: records-service seed --flock ID [--persons N] [--seed S] [--db PATH]

Fills an existing flock with sample data for trying the service and the console out:
N people (default 50, at most 10000) with emails, phones, addresses and tags; about three
in four with a membership (plan, number, dates, status) and its payment; some bookings.
Every record is created through the engine (audit, change feed and data events see it;
no trigger action runs for them). The same --seed (default 1) on the same day gives the
same people; running it again adds more.`;

const INDEXES = `Usage: records-service indexes [--db PATH] [--flock F] [--add TYPE.FIELD | --drop TYPE.FIELD | --reset TYPE.FIELD]

Lists the value index of each field per flock (every flock without --flock): the type,
the field, its status and why it is indexed (source). Statuses:
  declared     indexed: one of the service's defaults, or added by config or an operator
  earned       indexed because filters on it kept scanning many records (demand)
  building n%  being back-filled by the serving processes; filters scan until it is done
  dropped      not indexed: filters on it scan the records
Sources: default, config, operator, demand, migration. A row whose flock is * holds for
every flock (config indexes.fields) and is listed once.
  --add TYPE.FIELD    index the field in --flock (it is built in the background)
  --drop TYPE.FIELD   stop indexing it in --flock; a field the service looks up itself
                      (references, dates, tags, ...) cannot be dropped (exit 1)
  --reset TYPE.FIELD  hand the field in --flock back to the defaults
Each change needs --flock and prints the field's new line. An unknown flock or type, or a
refused change, exits 1 with the reason.`;

const MAIN = `Usage: records-service <command> [options]

Commands:
  serve       serve the HTTP API
  flock add   create a flock
  user add    create or replace a user
  user revoke end every key and session of a user
  card-url    print a member's signed card link
  invoice-url print an invoice's signed link
  webhook-secret  print the key a flock's webhook receivers verify with
  jobs        list the outbox: deliveries, attempts, errors
  indexes     list, add or drop the value index of each field
  config apply  apply a config file to the database (every server takes it up)
  config show   print the applied configuration, secrets redacted
  copy        copy a SQLite database into PostgreSQL
  export      write a flock's records as NDJSON or CSV
  import      read records from NDJSON or CSV into a flock
  seed        fill a flock with sample people, memberships, payments and bookings
  openapi     print the OpenAPI document of the HTTP API
  backup      copy a SQLite database while it serves, verified, keeping the last N
  restore     put a backup back into a SQLite database

Run "records-service <command> --help" for a command's options.
Exit codes: 0 done, 1 failed (e.g. bad config, unknown flock), 2 bad command line.

${SERVE}

${FLOCK_ADD}

${USER_ADD}

${USER_REVOKE}

${CARD_URL}

${WEBHOOK_SECRET}

${JOBS}

${INDEXES}

${CONFIG_APPLY}

${CONFIG_SHOW}

${COPY}

${EXPORT}

${IMPORT}

${SEED}

${OPENAPI}

${BACKUP}

${RESTORE}`;

/** Help text per command. */
export const USAGE = {
  main: MAIN,
  serve: SERVE,
  "flock add": FLOCK_ADD,
  "user add": USER_ADD,
  "user revoke": USER_REVOKE,
  "card-url": CARD_URL,
  "invoice-url": INVOICE_URL,
  "webhook-secret": WEBHOOK_SECRET,
  jobs: JOBS,
  indexes: INDEXES,
  "config apply": CONFIG_APPLY,
  "config show": CONFIG_SHOW,
  copy: COPY,
  export: EXPORT,
  import: IMPORT,
  seed: SEED,
  openapi: OPENAPI,
  backup: BACKUP,
  restore: RESTORE,
} as const;
