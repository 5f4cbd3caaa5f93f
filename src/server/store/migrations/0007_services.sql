CREATE TYPE "public"."service_type" AS ENUM('package', 'addon', 'hosting', 'care');--> statement-breakpoint
CREATE TABLE "services" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"content" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type" "service_type" DEFAULT 'package' NOT NULL,
	"prices" jsonb NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"features" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"modules" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "services_prices_standard" CHECK (jsonb_typeof("services"."prices" -> 'standard') = 'number')
);
--> statement-breakpoint
CREATE UNIQUE INDEX "services_name_key" ON "services" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "services_name_idx" ON "services" USING btree ("name" collate "und-x-icu",id);--> statement-breakpoint
CREATE INDEX "services_order_idx" ON "services" USING btree ("sort_order",id);--> statement-breakpoint
CREATE INDEX "services_type_idx" ON "services" USING btree ("type");