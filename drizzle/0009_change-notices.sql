-- Change notices (lib/generation/event-hub.ts): every instance LISTENs on one channel,
-- `gateway_changes`, and these triggers NOTIFY it; PostgreSQL delivers a notice when its
-- transaction commits, to every instance, so open streams make no queries while nothing happens.
-- Payloads: `g:<generation id>` (new rows in that job's event log), `k:<api key id>`,
-- `u:<user id>`, `s:<session id>` (a caller's standing may have changed: re-check it).
CREATE OR REPLACE FUNCTION gateway_notify_generation_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('gateway_changes', 'g:' || j.generation_id) FROM (SELECT DISTINCT generation_id FROM inserted_events) j;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER generation_events_notify AFTER INSERT ON generation_events
  REFERENCING NEW TABLE AS inserted_events FOR EACH STATEMENT EXECUTE FUNCTION gateway_notify_generation_events();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gateway_notify_standing() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('gateway_changes', TG_ARGV[0] || ':' || OLD.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER api_keys_standing_notify AFTER UPDATE OF enabled, expires_at ON api_keys FOR EACH ROW
  WHEN (OLD.enabled IS DISTINCT FROM NEW.enabled OR OLD.expires_at IS DISTINCT FROM NEW.expires_at)
  EXECUTE FUNCTION gateway_notify_standing('k');
--> statement-breakpoint
CREATE TRIGGER api_keys_deleted_notify AFTER DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION gateway_notify_standing('k');
--> statement-breakpoint
CREATE TRIGGER users_standing_notify AFTER UPDATE OF banned, ban_expires ON users FOR EACH ROW
  WHEN (OLD.banned IS DISTINCT FROM NEW.banned OR OLD.ban_expires IS DISTINCT FROM NEW.ban_expires)
  EXECUTE FUNCTION gateway_notify_standing('u');
--> statement-breakpoint
CREATE TRIGGER users_deleted_notify AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION gateway_notify_standing('u');
--> statement-breakpoint
CREATE TRIGGER sessions_standing_notify AFTER UPDATE OF expires ON sessions FOR EACH ROW
  WHEN (NEW.expires < OLD.expires)
  EXECUTE FUNCTION gateway_notify_standing('s');
--> statement-breakpoint
CREATE TRIGGER sessions_deleted_notify AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION gateway_notify_standing('s');
