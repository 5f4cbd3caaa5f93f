CREATE TABLE "recycle_bin" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid,
	"table_name" text NOT NULL,
	"record_id" uuid NOT NULL,
	"resource" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"tx" bigint NOT NULL,
	"actor_name" text DEFAULT '' NOT NULL,
	"children" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "recycle_bin" ADD CONSTRAINT "recycle_bin_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recycle_bin_website_idx" ON "recycle_bin" USING btree ("website_id","created_at");--> statement-breakpoint
CREATE INDEX "recycle_bin_created_idx" ON "recycle_bin" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "revisions_tx_idx" ON "revisions" USING btree ("tx");