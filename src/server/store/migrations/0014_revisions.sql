CREATE TABLE "revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"table_name" text NOT NULL,
	"record_id" uuid NOT NULL,
	"website_id" uuid,
	"action" text NOT NULL,
	"record_version" integer,
	"actor_id" uuid,
	"actor_kind" text NOT NULL,
	"actor_name" text DEFAULT '' NOT NULL,
	"device" text DEFAULT '' NOT NULL,
	"changed" text[] DEFAULT '{}' NOT NULL,
	"previous" jsonb,
	"values" jsonb NOT NULL,
	"tx" bigint DEFAULT txid_current() NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "revisions_record_idx" ON "revisions" USING btree ("table_name","record_id","created_at");--> statement-breakpoint
CREATE INDEX "revisions_website_idx" ON "revisions" USING btree ("website_id","created_at");
--> statement-breakpoint
-- Who a change is by: the request's transaction sets `app.actor` (http/idempotency.ts); a change
-- outside a request (a job, the first start) is the system's.
CREATE FUNCTION revision_actor() RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(current_setting('app.actor', true), ''), '{"kind":"system"}')::jsonb
$$;
--> statement-breakpoint
-- A row trigger's revision of its change (schema/revisions.ts). TG_ARGV[0]: the table's secret
-- columns, kept out of the values and named only when they changed; TG_ARGV[1] = 'self': the rows
-- are websites; TG_ARGV[2]: columns a job keeps (a form's mail status), no change of the record.
-- Version, update time and position alone are no change either (a reorder writes its own).
CREATE FUNCTION record_revision() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  secret text[] := TG_ARGV[0]::text[];
  kept text[] := TG_ARGV[2]::text[];
  actor jsonb := revision_actor();
  old_row jsonb;
  new_row jsonb;
  shown jsonb;
  changed text[] := '{}';
  previous jsonb;
BEGIN
  IF TG_OP <> 'INSERT' THEN old_row := to_jsonb(OLD); END IF;
  IF TG_OP <> 'DELETE' THEN new_row := to_jsonb(NEW); END IF;
  IF TG_OP = 'UPDATE' THEN
    SELECT coalesce(array_agg(n.key ORDER BY n.key), '{}') INTO changed
      FROM jsonb_each(new_row) n
      WHERE n.key NOT IN ('version', 'updated_at', 'position') AND NOT n.key = ANY (kept) AND n.value IS DISTINCT FROM old_row -> n.key;
    IF cardinality(changed) = 0 THEN RETURN NULL; END IF;
    SELECT jsonb_object_agg(c, old_row -> c) INTO previous FROM unnest(changed) c WHERE NOT c = ANY (secret);
  END IF;
  shown := coalesce(new_row, old_row) - secret;
  INSERT INTO revisions (table_name, record_id, website_id, action, record_version, actor_id, actor_kind, actor_name, device, changed, previous, "values")
  VALUES (
    TG_TABLE_NAME,
    (shown ->> 'id')::uuid,
    CASE WHEN TG_ARGV[1] = 'self' THEN (shown ->> 'id')::uuid ELSE (shown ->> 'website_id')::uuid END,
    CASE TG_OP WHEN 'INSERT' THEN 'create' WHEN 'UPDATE' THEN 'update' ELSE 'delete' END,
    (shown ->> 'version')::integer,
    (actor ->> 'id')::uuid,
    actor ->> 'kind',
    coalesce(actor ->> 'name', ''),
    coalesce(actor ->> 'device', ''),
    changed,
    previous,
    shown
  );
  RETURN NULL;
END $$;
--> statement-breakpoint
-- What a migration calls for each table whose records keep a history.
CREATE FUNCTION track_revisions(t regclass, secret text[] DEFAULT '{}', websites boolean DEFAULT false, kept text[] DEFAULT '{}') RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %s FOR EACH ROW EXECUTE FUNCTION record_revision(%L, %L, %L)',
    t::text || '_revisions', t, secret::text, CASE WHEN websites THEN 'self' ELSE '' END, kept::text);
END $$;
--> statement-breakpoint
SELECT track_revisions('categories');--> statement-breakpoint
SELECT track_revisions('subcategories');--> statement-breakpoint
SELECT track_revisions('types');--> statement-breakpoint
SELECT track_revisions('technologies');--> statement-breakpoint
SELECT track_revisions('hosting');--> statement-breakpoint
SELECT track_revisions('languages');--> statement-breakpoint
SELECT track_revisions('services');--> statement-breakpoint
SELECT track_revisions('app_settings');--> statement-breakpoint
SELECT track_revisions('users', '{password_hash}');--> statement-breakpoint
SELECT track_revisions('partners');--> statement-breakpoint
SELECT track_revisions('websites', '{}', true);--> statement-breakpoint
SELECT track_revisions('api_keys', '{key_hash}');--> statement-breakpoint
SELECT track_revisions('team_roles');--> statement-breakpoint
SELECT track_revisions('media');--> statement-breakpoint
SELECT track_revisions('cms_pages');--> statement-breakpoint
SELECT track_revisions('menus');--> statement-breakpoint
SELECT track_revisions('menu_items');--> statement-breakpoint
SELECT track_revisions('post_categories');--> statement-breakpoint
SELECT track_revisions('posts');--> statement-breakpoint
SELECT track_revisions('hero_sliders');--> statement-breakpoint
SELECT track_revisions('hero_slides');--> statement-breakpoint
SELECT track_revisions('gallery_sliders');--> statement-breakpoint
SELECT track_revisions('gallery_slides');--> statement-breakpoint
SELECT track_revisions('seo');--> statement-breakpoint
SELECT track_revisions('contact_forms');--> statement-breakpoint
SELECT track_revisions('contact_submissions', kept => '{mail_status,mail_attempts,next_attempt_at,claimed_until,sent_at}');--> statement-breakpoint
SELECT track_revisions('smtp_settings', '{password_encrypted}');--> statement-breakpoint
SELECT track_revisions('mail_templates');--> statement-breakpoint
SELECT track_revisions('gastro_menus');--> statement-breakpoint
SELECT track_revisions('gastro_categories');--> statement-breakpoint
SELECT track_revisions('gastro_allergens');--> statement-breakpoint
SELECT track_revisions('gastro_items');
