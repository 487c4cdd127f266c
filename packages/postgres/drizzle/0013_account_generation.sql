-- The account tables' own change mark (src/change-watch.ts): every statement on flocks,
-- users or api_keys sets it to a new random number in the writer's transaction (a random
-- mark, not a count: a database restored over this one cannot bring back a mark a process
-- has cached under, as two counts from 0 would), so it is visible exactly when
-- the change is. Each request's sync reads it beside the snapshot, and a process's cached
-- key, user and flock lookups are dropped only when it moved, not with every commit. The
-- notification's payload 'accounts' tells listeners which kind of change it was.
CREATE TABLE "account_generation" (
	"n" bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO "account_generation" ("n") VALUES (floor(random() * 9007199254740991)::bigint);
--> statement-breakpoint
CREATE FUNCTION records_account_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE account_generation SET n = floor(random() * 9007199254740991)::bigint;
  PERFORM pg_notify('records_changes', 'accounts');
  RETURN NULL;
END
$$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['flocks', 'users', 'api_keys'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I
                    FOR EACH STATEMENT EXECUTE FUNCTION records_account_change()', t || '_account_change', t);
  END LOOP;
END
$$;
