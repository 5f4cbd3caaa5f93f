-- Every change written down (0014's revisions) is told, once committed, to whoever listens on
-- `changes` (server/live/changes.ts): the devices that show it, on every server instance.
-- Ids only: what a device may read of it is decided by its own server, per session.
CREATE FUNCTION notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('changes', json_build_object(
    'id', NEW.id, 'table', NEW.table_name, 'record', NEW.record_id, 'website', NEW.website_id,
    'action', NEW.action, 'version', NEW.record_version, 'at', NEW.created_at
  )::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER revisions_notify AFTER INSERT ON revisions FOR EACH ROW EXECUTE FUNCTION notify_change();
