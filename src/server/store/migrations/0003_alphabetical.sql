DROP INDEX "categories_name_idx";--> statement-breakpoint
DROP INDEX "hosting_name_idx";--> statement-breakpoint
DROP INDEX "languages_code_idx";--> statement-breakpoint
DROP INDEX "languages_name_idx";--> statement-breakpoint
DROP INDEX "subcategories_category_idx";--> statement-breakpoint
DROP INDEX "subcategories_name_idx";--> statement-breakpoint
DROP INDEX "technologies_name_idx";--> statement-breakpoint
DROP INDEX "types_name_idx";--> statement-breakpoint
CREATE INDEX "categories_name_idx" ON "categories" USING btree ("name" collate "und-x-icu",id);--> statement-breakpoint
CREATE INDEX "hosting_name_idx" ON "hosting" USING btree ("name" collate "und-x-icu",id);--> statement-breakpoint
CREATE INDEX "languages_code_idx" ON "languages" USING btree ("code" collate "und-x-icu",id);--> statement-breakpoint
CREATE INDEX "languages_name_idx" ON "languages" USING btree ("name" collate "und-x-icu",id);--> statement-breakpoint
CREATE INDEX "subcategories_category_idx" ON "subcategories" USING btree ("category_id","name" collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "subcategories_name_idx" ON "subcategories" USING btree ("name" collate "und-x-icu",id);--> statement-breakpoint
CREATE INDEX "technologies_name_idx" ON "technologies" USING btree ("name" collate "und-x-icu",id);--> statement-breakpoint
CREATE INDEX "types_name_idx" ON "types" USING btree ("name" collate "und-x-icu",id);