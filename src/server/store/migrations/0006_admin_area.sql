CREATE TYPE "public"."partner_status" AS ENUM('active', 'inactive');--> statement-breakpoint
CREATE TYPE "public"."partner_type" AS ENUM('standard', 'agency', 'reseller');--> statement-breakpoint
CREATE TYPE "public"."website_status" AS ENUM('pending', 'active', 'maintenance', 'inactive');--> statement-breakpoint
CREATE TABLE "app_settings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"one" boolean DEFAULT true NOT NULL,
	"cms_name" text DEFAULT '' NOT NULL,
	"help_url" text DEFAULT '' NOT NULL,
	"support_url" text DEFAULT '' NOT NULL,
	"default_language" text DEFAULT 'en' NOT NULL,
	"mail_from" text DEFAULT '' NOT NULL,
	"cms_logo_key" text,
	CONSTRAINT "app_settings_one_key" UNIQUE("one"),
	CONSTRAINT "app_settings_one_row" CHECK ("app_settings"."one")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"key_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "api_keys_website_key" UNIQUE("website_id"),
	CONSTRAINT "api_keys_hash_key" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "partners" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"type" "partner_type" DEFAULT 'standard' NOT NULL,
	"status" "partner_status" DEFAULT 'active' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"website" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"owner_id" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "websites" DROP CONSTRAINT "websites_partner_id_users_id_fk";
--> statement-breakpoint
-- Edited by hand: a website's partner is now a partner record, not an account; no screen could set one before.
UPDATE "websites" SET "partner_id" = NULL;
--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "description" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "status" "website_status" DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "category_id" uuid;--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "subcategory_id" uuid;--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "type_id" uuid;--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "hosting_id" uuid;--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "technology_ids" uuid[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "language_ids" uuid[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "items" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "price" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "currency" text DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "modules" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "preview_key" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partners" ADD CONSTRAINT "partners_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "partners_owner_idx" ON "partners" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "partners_name_trgm" ON "partners" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "websites" ADD CONSTRAINT "websites_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "websites" ADD CONSTRAINT "websites_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "websites" ADD CONSTRAINT "websites_subcategory_id_subcategories_id_fk" FOREIGN KEY ("subcategory_id") REFERENCES "public"."subcategories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "websites" ADD CONSTRAINT "websites_type_id_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "websites" ADD CONSTRAINT "websites_hosting_id_hosting_id_fk" FOREIGN KEY ("hosting_id") REFERENCES "public"."hosting"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_email_trgm" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_names_trgm" ON "users" USING gin (("first_name" || ' ' || "last_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_type_idx" ON "users" USING btree ("type","created_at");--> statement-breakpoint
CREATE INDEX "websites_status_idx" ON "websites" USING btree ("status");--> statement-breakpoint
CREATE INDEX "websites_category_idx" ON "websites" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "websites_subcategory_idx" ON "websites" USING btree ("subcategory_id");--> statement-breakpoint
CREATE INDEX "websites_name_trgm" ON "websites" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "websites_domain_trgm" ON "websites" USING gin ("domain" gin_trgm_ops);--> statement-breakpoint
-- Edited by hand: the one settings row, carrying over a white-label name stored the old way.
INSERT INTO "app_settings" ("id", "cms_name")
  SELECT gen_random_uuid(), coalesce((SELECT btrim("value"->>'cmsName') FROM "settings" WHERE "key" = 'white-label'), '');
--> statement-breakpoint
-- The footer's Support link (spec §2) of an installation made before: its first admin.
UPDATE "app_settings" SET "support_url" = 'mailto:' || "first"."email"
  FROM (SELECT "email" FROM "users" WHERE "type" = 'admin' ORDER BY "created_at" LIMIT 1) AS "first";
--> statement-breakpoint
DELETE FROM "settings" WHERE "key" = 'white-label';
