DROP INDEX "gastro_categories_menu_idx";--> statement-breakpoint
DROP INDEX "gastro_items_menu_idx";--> statement-breakpoint
CREATE INDEX "gastro_categories_menu_idx" ON "gastro_categories" USING btree ("website_id","menu_id","position","id");--> statement-breakpoint
CREATE INDEX "gastro_items_menu_idx" ON "gastro_items" USING btree ("website_id","menu_id","position","id");