-- An ending's own notice (lib/generation/event-hub.ts, `endingTopic`): beside `g:<generation id>`
-- (new rows in that job's event log), `e:<generation id>` when those rows include the job's final
-- status. A sync run waiting on its provider follows only that one, so its own progress writes
-- (`submitted`, `storing`) no longer wake it into a read of the job's status.
CREATE OR REPLACE FUNCTION gateway_notify_generation_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('gateway_changes', 'g:' || j.generation_id) FROM (SELECT DISTINCT generation_id FROM inserted_events) j;
  PERFORM pg_notify('gateway_changes', 'e:' || j.generation_id)
     FROM (SELECT DISTINCT generation_id FROM inserted_events
            WHERE kind = 'status' AND data ->> 'status' IN ('completed', 'failed', 'cancelled')) j;
  RETURN NULL;
END
$$;
