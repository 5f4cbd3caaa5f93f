-- Who a bearer token is (its session, its user, the user's team role) is remembered by each server
-- between requests (server/auth/principals.ts); any change to those rows, on any server or straight
-- in the database, is told on `principals`, and every server forgets what it remembered.
CREATE FUNCTION notify_principals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('principals', TG_TABLE_NAME);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_notify_principals AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sessions FOR EACH STATEMENT EXECUTE FUNCTION notify_principals();
--> statement-breakpoint
CREATE TRIGGER users_notify_principals AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION notify_principals();
--> statement-breakpoint
CREATE TRIGGER team_roles_notify_principals AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON team_roles FOR EACH STATEMENT EXECUTE FUNCTION notify_principals();
