-- Edited by hand: each composite SET NULL clears only its reference column, never the website or the menu; the trigger at the end clears a dish's copied picture key when its picture is cleared (as in 0008), called only then: a reorder of 2,000 dishes updates every row.
CREATE TABLE "gastro_allergens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"identifier" text,
	"name" text NOT NULL,
	"content" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "gastro_allergens_website_key" UNIQUE("website_id","id")
);
--> statement-breakpoint
CREATE TABLE "gastro_categories" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"menu_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "gastro_categories_website_key" UNIQUE("website_id","id"),
	CONSTRAINT "gastro_categories_menu_key" UNIQUE("website_id","menu_id","id")
);
--> statement-breakpoint
CREATE TABLE "gastro_items" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"menu_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price" integer DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"category_id" uuid,
	"allergen_ids" uuid[] DEFAULT '{}' NOT NULL,
	"available" boolean DEFAULT true NOT NULL,
	"media_id" uuid,
	"image_key" text,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "gastro_items_website_key" UNIQUE("website_id","id"),
	CONSTRAINT "gastro_items_price_positive" CHECK ("gastro_items"."price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "gastro_menus" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" "content_status" DEFAULT 'draft' NOT NULL,
	"language" text DEFAULT 'de' NOT NULL,
	CONSTRAINT "gastro_menus_website_key" UNIQUE("website_id","id")
);
--> statement-breakpoint
ALTER TABLE "gastro_allergens" ADD CONSTRAINT "gastro_allergens_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gastro_categories" ADD CONSTRAINT "gastro_categories_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gastro_categories" ADD CONSTRAINT "gastro_categories_menu_fk" FOREIGN KEY ("website_id","menu_id") REFERENCES "public"."gastro_menus"("website_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gastro_items" ADD CONSTRAINT "gastro_items_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gastro_items" ADD CONSTRAINT "gastro_items_menu_fk" FOREIGN KEY ("website_id","menu_id") REFERENCES "public"."gastro_menus"("website_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gastro_items" ADD CONSTRAINT "gastro_items_category_fk" FOREIGN KEY ("website_id","menu_id","category_id") REFERENCES "public"."gastro_categories"("website_id","menu_id","id") ON DELETE SET NULL ("category_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gastro_items" ADD CONSTRAINT "gastro_items_media_fk" FOREIGN KEY ("website_id","media_id") REFERENCES "public"."media"("website_id","id") ON DELETE SET NULL ("media_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gastro_menus" ADD CONSTRAINT "gastro_menus_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gastro_allergens_identifier_key" ON "gastro_allergens" USING btree ("website_id",upper("identifier"));--> statement-breakpoint
CREATE INDEX "gastro_allergens_identifier_idx" ON "gastro_allergens" USING btree ("website_id","identifier" collate "und-x-icu",id);--> statement-breakpoint
CREATE INDEX "gastro_categories_menu_idx" ON "gastro_categories" USING btree ("menu_id","position","id");--> statement-breakpoint
CREATE INDEX "gastro_items_menu_idx" ON "gastro_items" USING btree ("menu_id","position","id");--> statement-breakpoint
CREATE INDEX "gastro_items_category_idx" ON "gastro_items" USING btree ("website_id","menu_id","category_id");--> statement-breakpoint
CREATE INDEX "gastro_menus_name_idx" ON "gastro_menus" USING btree ("website_id","name" collate "und-x-icu",id);--> statement-breakpoint
CREATE TRIGGER "gastro_items_clear_image_key" BEFORE UPDATE ON "gastro_items" FOR EACH ROW WHEN (NEW."media_id" IS NULL AND NEW."image_key" IS NOT NULL) EXECUTE FUNCTION "clear_copied_key"('media_id', 'image_key');
