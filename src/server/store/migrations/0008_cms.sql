-- Edited by hand: each composite SET NULL clears only its reference column, never the website; the triggers at the end clear the storage key copied with a picture (content/media-links.ts) when its reference is cleared.
CREATE TYPE "public"."content_status" AS ENUM('draft', 'published');--> statement-breakpoint
CREATE TYPE "public"."slider_status" AS ENUM('active', 'inactive');--> statement-breakpoint
CREATE TABLE "cms_pages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"title" text NOT NULL,
	"slug" text NOT NULL,
	"status" "content_status" DEFAULT 'draft' NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"meta_title" text DEFAULT '' NOT NULL,
	"meta_description" text DEFAULT '' NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "cms_pages_website_key" UNIQUE("website_id","id")
);
--> statement-breakpoint
CREATE TABLE "gallery_sliders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" "slider_status" DEFAULT 'active' NOT NULL,
	CONSTRAINT "gallery_sliders_website_key" UNIQUE("website_id","id")
);
--> statement-breakpoint
CREATE TABLE "gallery_slides" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"slider_id" uuid NOT NULL,
	"media_id" uuid NOT NULL,
	"image_key" text,
	"caption" text DEFAULT '' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hero_sliders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"name" text NOT NULL,
	"status" "slider_status" DEFAULT 'active' NOT NULL,
	"autoplay" boolean DEFAULT true NOT NULL,
	"interval" integer DEFAULT 5 NOT NULL,
	CONSTRAINT "hero_sliders_website_key" UNIQUE("website_id","id")
);
--> statement-breakpoint
CREATE TABLE "hero_slides" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"slider_id" uuid NOT NULL,
	"title" text NOT NULL,
	"subtitle" text DEFAULT '' NOT NULL,
	"media_id" uuid,
	"image_key" text,
	"button_label" text DEFAULT '' NOT NULL,
	"button_url" text DEFAULT '' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"alt" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"folder" text DEFAULT '' NOT NULL,
	"mimetype" text NOT NULL,
	"size" integer NOT NULL,
	"width" integer,
	"height" integer,
	"storage_key" text NOT NULL,
	"thumb_key" text,
	CONSTRAINT "media_website_key" UNIQUE("website_id","id")
);
--> statement-breakpoint
CREATE TABLE "menu_items" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"menu_id" uuid NOT NULL,
	"label" text NOT NULL,
	"page_id" uuid,
	"url" text DEFAULT '' NOT NULL,
	"parent_id" uuid,
	"open_in_new_tab" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "menu_items_website_key" UNIQUE("website_id","id"),
	CONSTRAINT "menu_items_menu_key" UNIQUE("website_id","menu_id","id")
);
--> statement-breakpoint
CREATE TABLE "menus" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"name" text NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	CONSTRAINT "menus_website_key" UNIQUE("website_id","id")
);
--> statement-breakpoint
CREATE TABLE "post_categories" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	CONSTRAINT "post_categories_website_key" UNIQUE("website_id","id")
);
--> statement-breakpoint
CREATE TABLE "posts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"title" text NOT NULL,
	"slug" text NOT NULL,
	"excerpt" text DEFAULT '' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"cover_media_id" uuid,
	"cover_key" text,
	"category_id" uuid,
	"status" "content_status" DEFAULT 'draft' NOT NULL,
	"published_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "seo" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"keywords" text[] DEFAULT '{}' NOT NULL,
	"og_image_media_id" uuid,
	"og_image_key" text,
	"robots" text DEFAULT 'index, follow' NOT NULL,
	"sitemap" boolean DEFAULT true NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "seo_website_key" UNIQUE("website_id")
);
--> statement-breakpoint
ALTER TABLE "cms_pages" ADD CONSTRAINT "cms_pages_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_sliders" ADD CONSTRAINT "gallery_sliders_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_slides" ADD CONSTRAINT "gallery_slides_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_slides" ADD CONSTRAINT "gallery_slides_slider_fk" FOREIGN KEY ("website_id","slider_id") REFERENCES "public"."gallery_sliders"("website_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_slides" ADD CONSTRAINT "gallery_slides_media_fk" FOREIGN KEY ("website_id","media_id") REFERENCES "public"."media"("website_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hero_sliders" ADD CONSTRAINT "hero_sliders_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hero_slides" ADD CONSTRAINT "hero_slides_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hero_slides" ADD CONSTRAINT "hero_slides_slider_fk" FOREIGN KEY ("website_id","slider_id") REFERENCES "public"."hero_sliders"("website_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hero_slides" ADD CONSTRAINT "hero_slides_media_fk" FOREIGN KEY ("website_id","media_id") REFERENCES "public"."media"("website_id","id") ON DELETE SET NULL ("media_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_items" ADD CONSTRAINT "menu_items_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_items" ADD CONSTRAINT "menu_items_menu_fk" FOREIGN KEY ("website_id","menu_id") REFERENCES "public"."menus"("website_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_items" ADD CONSTRAINT "menu_items_page_fk" FOREIGN KEY ("website_id","page_id") REFERENCES "public"."cms_pages"("website_id","id") ON DELETE SET NULL ("page_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_items" ADD CONSTRAINT "menu_items_parent_fk" FOREIGN KEY ("website_id","menu_id","parent_id") REFERENCES "public"."menu_items"("website_id","menu_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menus" ADD CONSTRAINT "menus_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_categories" ADD CONSTRAINT "post_categories_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_cover_fk" FOREIGN KEY ("website_id","cover_media_id") REFERENCES "public"."media"("website_id","id") ON DELETE SET NULL ("cover_media_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_category_fk" FOREIGN KEY ("website_id","category_id") REFERENCES "public"."post_categories"("website_id","id") ON DELETE SET NULL ("category_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seo" ADD CONSTRAINT "seo_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seo" ADD CONSTRAINT "seo_og_image_fk" FOREIGN KEY ("website_id","og_image_media_id") REFERENCES "public"."media"("website_id","id") ON DELETE SET NULL ("og_image_media_id") ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cms_pages_slug_key" ON "cms_pages" USING btree ("website_id","language",lower("slug"));--> statement-breakpoint
CREATE INDEX "cms_pages_title_idx" ON "cms_pages" USING btree ("website_id","title" collate "und-x-icu",id);--> statement-breakpoint
CREATE INDEX "cms_pages_title_trgm" ON "cms_pages" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "gallery_sliders_name_idx" ON "gallery_sliders" USING btree ("website_id","name" collate "und-x-icu",id);--> statement-breakpoint
CREATE INDEX "gallery_slides_slider_idx" ON "gallery_slides" USING btree ("slider_id","position","id");--> statement-breakpoint
CREATE INDEX "hero_sliders_name_idx" ON "hero_sliders" USING btree ("website_id","name" collate "und-x-icu",id);--> statement-breakpoint
CREATE INDEX "hero_slides_slider_idx" ON "hero_slides" USING btree ("slider_id","position","id");--> statement-breakpoint
CREATE INDEX "media_website_created_idx" ON "media" USING btree ("website_id","created_at");--> statement-breakpoint
CREATE INDEX "media_website_folder_idx" ON "media" USING btree ("website_id","folder");--> statement-breakpoint
CREATE INDEX "media_file_name_trgm" ON "media" USING gin ("file_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "menu_items_menu_idx" ON "menu_items" USING btree ("menu_id","position","id");--> statement-breakpoint
CREATE INDEX "menus_name_idx" ON "menus" USING btree ("website_id","name" collate "und-x-icu",id);--> statement-breakpoint
CREATE UNIQUE INDEX "post_categories_slug_key" ON "post_categories" USING btree ("website_id",lower("slug"));--> statement-breakpoint
CREATE INDEX "post_categories_name_idx" ON "post_categories" USING btree ("website_id","name" collate "und-x-icu",id);--> statement-breakpoint
CREATE UNIQUE INDEX "posts_slug_key" ON "posts" USING btree ("website_id",lower("slug"));--> statement-breakpoint
CREATE INDEX "posts_website_created_idx" ON "posts" USING btree ("website_id","created_at");--> statement-breakpoint
CREATE INDEX "posts_title_idx" ON "posts" USING btree ("website_id","title" collate "und-x-icu",id);--> statement-breakpoint
CREATE INDEX "posts_title_trgm" ON "posts" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "seo_active_idx" ON "seo" USING btree ("is_active");--> statement-breakpoint
CREATE FUNCTION "clear_copied_key"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- TG_ARGV: the reference column, then the key column copied beside it.
  IF to_jsonb(NEW) ->> TG_ARGV[0] IS NULL THEN
    NEW := jsonb_populate_record(NEW, jsonb_build_object(TG_ARGV[1], NULL));
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "hero_slides_clear_image_key" BEFORE UPDATE ON "hero_slides" FOR EACH ROW EXECUTE FUNCTION "clear_copied_key"('media_id', 'image_key');--> statement-breakpoint
CREATE TRIGGER "gallery_slides_clear_image_key" BEFORE UPDATE ON "gallery_slides" FOR EACH ROW EXECUTE FUNCTION "clear_copied_key"('media_id', 'image_key');--> statement-breakpoint
CREATE TRIGGER "posts_clear_cover_key" BEFORE UPDATE ON "posts" FOR EACH ROW EXECUTE FUNCTION "clear_copied_key"('cover_media_id', 'cover_key');--> statement-breakpoint
CREATE TRIGGER "seo_clear_og_image_key" BEFORE UPDATE ON "seo" FOR EACH ROW EXECUTE FUNCTION "clear_copied_key"('og_image_media_id', 'og_image_key');
