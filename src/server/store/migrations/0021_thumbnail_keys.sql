-- A record's picture is copied as its thumbnail's key (its own where it has none), so the lists of
-- dishes, slides and posts load small files (content/media-links.ts). The copies made before are
-- the pictures' own: made again, with the tables' own triggers off, since no one changed the
-- records (no revision, no change heard by a device or a webhook).
ALTER TABLE "gastro_items" DISABLE TRIGGER USER;--> statement-breakpoint
UPDATE "gastro_items" AS r SET "image_key" = coalesce(m."thumb_key", m."storage_key") FROM "media" AS m WHERE m."id" = r."media_id" AND m."website_id" = r."website_id";--> statement-breakpoint
ALTER TABLE "gastro_items" ENABLE TRIGGER USER;--> statement-breakpoint
ALTER TABLE "hero_slides" DISABLE TRIGGER USER;--> statement-breakpoint
UPDATE "hero_slides" AS r SET "image_key" = coalesce(m."thumb_key", m."storage_key") FROM "media" AS m WHERE m."id" = r."media_id" AND m."website_id" = r."website_id";--> statement-breakpoint
ALTER TABLE "hero_slides" ENABLE TRIGGER USER;--> statement-breakpoint
ALTER TABLE "gallery_slides" DISABLE TRIGGER USER;--> statement-breakpoint
UPDATE "gallery_slides" AS r SET "image_key" = coalesce(m."thumb_key", m."storage_key") FROM "media" AS m WHERE m."id" = r."media_id" AND m."website_id" = r."website_id";--> statement-breakpoint
ALTER TABLE "gallery_slides" ENABLE TRIGGER USER;--> statement-breakpoint
ALTER TABLE "posts" DISABLE TRIGGER USER;--> statement-breakpoint
UPDATE "posts" AS r SET "cover_key" = coalesce(m."thumb_key", m."storage_key") FROM "media" AS m WHERE m."id" = r."cover_media_id" AND m."website_id" = r."website_id";--> statement-breakpoint
ALTER TABLE "posts" ENABLE TRIGGER USER;--> statement-breakpoint
ALTER TABLE "seo" DISABLE TRIGGER USER;--> statement-breakpoint
UPDATE "seo" AS r SET "og_image_key" = coalesce(m."thumb_key", m."storage_key") FROM "media" AS m WHERE m."id" = r."og_image_media_id" AND m."website_id" = r."website_id";--> statement-breakpoint
ALTER TABLE "seo" ENABLE TRIGGER USER;
