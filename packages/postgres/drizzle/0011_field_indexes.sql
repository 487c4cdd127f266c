-- The value index's registry (issue 24): the fields whose index differs from the defaults
-- (core's isIndexedByDefault), per flock (or '*') and type, with the cursor of a back-fill
-- or removal. Which fields an older version indexed that the defaults no longer want is
-- core's rule, which SQL cannot call: the row in `field_indexes_fill` asks
-- `migrateDatabase` to add their 'dropped' rows (source 'migration') right after, under the
-- migration lock (field-indexes.ts, fillFieldIndexes). A filter on a field the index does
-- not keep reads `records_entries` (below) instead; docs/decisions.md, "The index registry
-- on PostgreSQL".
CREATE TABLE "field_indexes" (
	"flock" text COLLATE "C" NOT NULL,
	"type" text COLLATE "C" NOT NULL,
	"field" text COLLATE "C" NOT NULL,
	"state" text COLLATE "C" NOT NULL,
	"source" text COLLATE "C" NOT NULL,
	"cursor" bigint,
	"done" boolean NOT NULL,
	CONSTRAINT "field_indexes_flock_type_field_pk" PRIMARY KEY("flock","type","field")
);
--> statement-breakpoint
CREATE TABLE "field_indexes_fill" (
	"pending" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "records_entries_rule" (
	"base" text NOT NULL,
	"pattern" text NOT NULL,
	"folds" integer[] NOT NULL,
	"checked" text[] NOT NULL
);

--> statement-breakpoint
INSERT INTO "field_indexes_fill" ("pending") VALUES (1);
--> statement-breakpoint
-- Other processes cache the registry per change generation (change-watch.ts).
CREATE TRIGGER field_indexes_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON field_indexes
  FOR EACH STATEMENT EXECUTE FUNCTION records_notify_change();
--> statement-breakpoint
-- Which records keep the entries of every field in record_values whatever the registry says,
-- so that records_entries reads them there: those whose data text matches the pattern of
-- `records_entries_rule`. With ICU (lower() then folds as JavaScript's toLowerCase does, by
-- ICU's root locale): the data PostgreSQL's JSON functions refuse (a \u0000 or lone
-- surrogate escape), and (added by field-indexes.ts, checkFolding, at open) data with a
-- character that this server's ICU and the service's JavaScript fold differently (their
-- Unicode versions differ). Without ICU also all data beyond ASCII (lower() under "C"
-- folds ASCII only). Writers read the pattern in their transaction (records_write_rules)
-- and test the JSON text they write with it.
DO $$
DECLARE
  icu boolean := EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu');
  base text := '\\u(0000|d[89a-f])' || CASE WHEN icu THEN '' ELSE '|[^\x01-\x7f]' END;
BEGIN
  INSERT INTO records_entries_rule (base, pattern, folds, checked) VALUES (base, base, '{}', '{}');
  EXECUTE format('CREATE FUNCTION records_fold(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS %L',
    CASE WHEN icu THEN 'SELECT lower(t COLLATE "und-x-icu")' ELSE 'SELECT lower(t COLLATE "C")' END);
END
$$;
--> statement-breakpoint
CREATE FUNCTION records_stores_entries(data text) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT data ~ (SELECT pattern FROM records_entries_rule)
$$;
--> statement-breakpoint
-- records_entries(data, name, rid): the record_values rows that core's valueRows gives field
-- `name` of the record's data (a JSON text as JSON.stringify wrote it): kind, text and
-- folded as UTF-8 bytes cut at 1,024 (the whole in *_long when longer), folded NULL where
-- it equals text, num, each (kind, text) once. Numbers and objects keep their JSON text,
-- which is JSON.stringify's, so String(n) of a number; strings are decoded by PostgreSQL.
-- A record whose data records_stores_entries names has its rows read from record_values.
CREATE FUNCTION records_entries(data text, name text, rid bigint)
RETURNS TABLE (kind smallint, text bytea, text_long bytea, folded bytea, folded_long bytea, num double precision)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT v.kind, v.text, v.text_long, v.folded, v.folded_long, v.num
  FROM record_values v JOIN fields f ON f.fid = v.fid
  WHERE records_stores_entries($1) AND v.rid = $3 AND f.name = $2
  UNION ALL
  SELECT DISTINCT x.kind,
    CASE WHEN octet_length(x.t) > 1024 THEN substring(x.t FROM 1 FOR 1024) ELSE x.t END,
    CASE WHEN octet_length(x.t) > 1024 THEN x.t END,
    CASE WHEN octet_length(x.f) > 1024 THEN substring(x.f FROM 1 FOR 1024) ELSE x.f END,
    CASE WHEN octet_length(x.f) > 1024 THEN x.f END,
    x.num
  FROM json_array_elements(CASE WHEN records_stores_entries($1) THEN '[]'::json ELSE
      (SELECT CASE json_typeof(s.j) WHEN 'array' THEN s.j ELSE json_build_array(s.j) END FROM (SELECT $1::json -> $2 AS j) s) END) AS e(j)
  CROSS JOIN LATERAL (SELECT json_typeof(e.j) AS ty, CASE WHEN json_typeof(e.j) = 'string' THEN e.j #>> '{}' ELSE e.j::text END AS s) y
  CROSS JOIN LATERAL (SELECT
      (CASE y.ty WHEN 'string' THEN 0 WHEN 'number' THEN 1 WHEN 'boolean' THEN 2 ELSE 3 END)::smallint AS kind,
      convert_to(y.s, 'UTF8') AS t,
      CASE WHEN y.ty IN ('string', 'object', 'array') THEN nullif(convert_to(records_fold(y.s), 'UTF8'), convert_to(y.s, 'UTF8')) END AS f,
      CASE WHEN y.ty = 'number' THEN y.s::double precision END AS num) x
  WHERE y.ty <> 'null'
$$;
--> statement-breakpoint
-- records_write_rules(flocks, types): what a write transaction reads of the registry, after
-- taking the shared advisory lock of each type in the order given (the caller sorts them):
-- a change of a type's registry rows takes that lock exclusively, so it waits for the
-- writes that read the rows before it, and later writes see the change. Locking, then
-- reading in a new statement (this function is VOLATILE: under READ COMMITTED each of its
-- statements takes a new snapshot), in one round trip. 1919509624 is field-indexes.ts's
-- INDEX_LOCK_SPACE.
CREATE FUNCTION records_write_rules(flocks text[], types text[]) RETURNS json
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  t text;
BEGIN
  -- Key 0: the pattern of records_entries_rule, which checkFolding changes exclusively.
  PERFORM pg_advisory_xact_lock_shared(1919509624, 0);
  FOREACH t IN ARRAY types LOOP
    PERFORM pg_advisory_xact_lock_shared(1919509624, hashtext(t));
  END LOOP;
  RETURN json_build_object('pattern', (SELECT pattern FROM records_entries_rule), 'rows',
    (SELECT coalesce(json_agg(json_build_array(f.flock, f.type, f.field, f.state)), '[]'::json) FROM field_indexes f
     WHERE f.type = ANY(types) AND (f.flock = ANY(flocks) OR f.flock = '*')));
END
$$;
