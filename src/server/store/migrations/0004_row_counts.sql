CREATE TABLE "row_counts" (
	"table_name" text PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
-- Statement triggers keep row_counts exact: inserts add, deletes (cascades included) subtract,
-- truncate resets. A transaction that rolls back takes its change of the count with it.
CREATE FUNCTION count_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO row_counts (table_name, n) SELECT TG_TABLE_NAME, count(*) FROM new_rows
      ON CONFLICT (table_name) DO UPDATE SET n = row_counts.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE row_counts SET n = n - (SELECT count(*) FROM old_rows) WHERE table_name = TG_TABLE_NAME;
  ELSE
    UPDATE row_counts SET n = 0 WHERE table_name = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- What a migration calls for each table whose unfiltered lists may grow large.
CREATE FUNCTION keep_row_count(t regclass) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  name text := t::text;
BEGIN
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %s REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_rows()', name || '_count_insert', t);
  EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %s REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_rows()', name || '_count_delete', t);
  EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %s FOR EACH STATEMENT EXECUTE FUNCTION count_rows()', name || '_count_truncate', t);
  EXECUTE format('INSERT INTO row_counts (table_name, n) SELECT %L, count(*) FROM %s ON CONFLICT (table_name) DO UPDATE SET n = excluded.n', name, t);
END $$;
--> statement-breakpoint
SELECT keep_row_count('categories');
--> statement-breakpoint
SELECT keep_row_count('subcategories');
--> statement-breakpoint
SELECT keep_row_count('types');
--> statement-breakpoint
SELECT keep_row_count('technologies');
--> statement-breakpoint
SELECT keep_row_count('hosting');
--> statement-breakpoint
SELECT keep_row_count('languages');
