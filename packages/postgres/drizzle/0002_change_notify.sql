-- Every committed change to the service's tables notifies channel records_changes, so
-- each process's storage learns within milliseconds that its cached answers (account
-- lookups, serialized responses) may be stale (see src/change-watch.ts). Statement-level
-- triggers, and PostgreSQL folds equal notifications of one transaction into one, so a
-- transaction costs one notification however much it writes.
CREATE FUNCTION records_notify_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('records_changes', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  -- The derived tables (record_values, record_refs, collection_counts, collections, fields)
  -- change only with records.
  FOREACH t IN ARRAY ARRAY['flocks', 'users', 'api_keys', 'settings', 'records', 'files', 'outbox'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I
                    FOR EACH STATEMENT EXECUTE FUNCTION records_notify_change()', t || '_notify_change', t);
  END LOOP;
END
$$;
