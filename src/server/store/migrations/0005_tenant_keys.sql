ALTER TABLE "team_roles" ADD CONSTRAINT "team_roles_website_key" UNIQUE("website_id","id");--> statement-breakpoint
ALTER TABLE "team_roles" ADD CONSTRAINT "team_roles_name_not_admin" CHECK (lower(btrim("team_roles"."name")) <> 'admin');--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_team_role_id_team_roles_id_fk";--> statement-breakpoint
-- Edited by hand: SET NULL only the role, so deleting a role keeps its members on their website.
ALTER TABLE "users" ADD CONSTRAINT "users_team_role_fk" FOREIGN KEY ("website_id","team_role_id") REFERENCES "public"."team_roles"("website_id","id") ON DELETE SET NULL ("team_role_id") ON UPDATE no action;
