CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "categories" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hosting" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "languages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"content" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subcategories" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"category_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "technologies" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "types" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"caller" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer,
	"response" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_caller_key_pk" PRIMARY KEY("caller","key")
);
--> statement-breakpoint
CREATE TABLE "websites" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"domain" text DEFAULT '' NOT NULL,
	"owner_id" uuid NOT NULL,
	"partner_id" uuid
);
--> statement-breakpoint
ALTER TABLE "subcategories" ADD CONSTRAINT "subcategories_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "websites" ADD CONSTRAINT "websites_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "websites" ADD CONSTRAINT "websites_partner_id_users_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "categories_name_key" ON "categories" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "categories_name_trgm" ON "categories" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "categories_description_trgm" ON "categories" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "categories_name_idx" ON "categories" USING btree ("name",id);--> statement-breakpoint
CREATE INDEX "categories_created_idx" ON "categories" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "categories_updated_idx" ON "categories" USING btree ("updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "hosting_name_key" ON "hosting" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "hosting_name_trgm" ON "hosting" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "hosting_description_trgm" ON "hosting" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "hosting_name_idx" ON "hosting" USING btree ("name",id);--> statement-breakpoint
CREATE INDEX "hosting_created_idx" ON "hosting" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "hosting_updated_idx" ON "hosting" USING btree ("updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "languages_code_key" ON "languages" USING btree (lower("code"));--> statement-breakpoint
CREATE INDEX "languages_code_idx" ON "languages" USING btree ("code");--> statement-breakpoint
CREATE INDEX "languages_name_trgm" ON "languages" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "languages_code_trgm" ON "languages" USING gin ("code" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "languages_name_idx" ON "languages" USING btree ("name",id);--> statement-breakpoint
CREATE INDEX "languages_created_idx" ON "languages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "languages_updated_idx" ON "languages" USING btree ("updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "subcategories_name_key" ON "subcategories" USING btree ("category_id",lower("name"));--> statement-breakpoint
CREATE INDEX "subcategories_category_idx" ON "subcategories" USING btree ("category_id","name");--> statement-breakpoint
CREATE INDEX "subcategories_name_trgm" ON "subcategories" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "subcategories_description_trgm" ON "subcategories" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "subcategories_name_idx" ON "subcategories" USING btree ("name",id);--> statement-breakpoint
CREATE INDEX "subcategories_created_idx" ON "subcategories" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "subcategories_updated_idx" ON "subcategories" USING btree ("updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "technologies_name_key" ON "technologies" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "technologies_name_trgm" ON "technologies" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "technologies_description_trgm" ON "technologies" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "technologies_name_idx" ON "technologies" USING btree ("name",id);--> statement-breakpoint
CREATE INDEX "technologies_created_idx" ON "technologies" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "technologies_updated_idx" ON "technologies" USING btree ("updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "types_name_key" ON "types" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "types_name_trgm" ON "types" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "types_description_trgm" ON "types" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "types_name_idx" ON "types" USING btree ("name",id);--> statement-breakpoint
CREATE INDEX "types_created_idx" ON "types" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "types_updated_idx" ON "types" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "websites_owner_idx" ON "websites" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "websites_partner_idx" ON "websites" USING btree ("partner_id");--> statement-breakpoint
ALTER TABLE "team_roles" ADD CONSTRAINT "team_roles_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_website_idx" ON "users" USING btree ("website_id");