CREATE TYPE "public"."webhook_delivery_status" AS ENUM('pending', 'delivered', 'failed');--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"webhook_id" uuid NOT NULL,
	"event" text NOT NULL,
	"payload" text NOT NULL,
	"status" "webhook_delivery_status" DEFAULT 'pending' NOT NULL,
	"attempts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"last_status_code" integer,
	"last_duration_ms" integer,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	CONSTRAINT "webhook_deliveries_website_key" UNIQUE("website_id","id")
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"revision_id" uuid NOT NULL,
	"website_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"url" text NOT NULL,
	"events" text[] DEFAULT '{}' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"secret_encrypted" text NOT NULL,
	"disabled_at" timestamp with time zone,
	"last_delivery_at" timestamp with time zone,
	"last_status_code" integer,
	"last_error" text,
	CONSTRAINT "webhooks_website_key" UNIQUE("website_id","id")
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_fk" FOREIGN KEY ("website_id","webhook_id") REFERENCES "public"."webhooks"("website_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_log_idx" ON "webhook_deliveries" USING btree ("website_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_events_created_idx" ON "webhook_events" USING btree ("created_at");--> statement-breakpoint
-- A webhook's secret never enters a revision; what the sender writes on a delivery as it goes is
-- its bookkeeping, no change of a record (only a delivery's making is).
SELECT track_revisions('webhooks', '{secret_encrypted}', false, '{last_delivery_at,last_status_code,last_error}');--> statement-breakpoint
SELECT track_revisions('webhook_deliveries', kept => '{status,attempts,last_attempt_at,last_status_code,last_duration_ms,next_attempt_at,claimed_until}');--> statement-breakpoint
-- Every change written down (0014) is queued for the website's webhooks in the change's own
-- transaction: one rolled back queues nothing, one committed is queued once. Only websites with an
-- active webhook pay for it; which event a revision is, the server decides from its registry.
-- The webhooks' own tables are no content, and queuing their changes would feed the queue itself.
CREATE FUNCTION queue_webhook_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.website_id IS NOT NULL AND NEW.table_name NOT IN ('webhooks', 'webhook_deliveries')
    AND EXISTS (SELECT 1 FROM webhooks w WHERE w.website_id = NEW.website_id AND w.is_active) THEN
    INSERT INTO webhook_events (revision_id, website_id) VALUES (NEW.id, NEW.website_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER revisions_webhooks AFTER INSERT ON revisions FOR EACH ROW EXECUTE FUNCTION queue_webhook_event();
