DROP INDEX "revisions_record_idx";--> statement-breakpoint
CREATE INDEX "revisions_created_idx" ON "revisions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "revisions_record_idx" ON "revisions" USING btree ("record_id","created_at");
