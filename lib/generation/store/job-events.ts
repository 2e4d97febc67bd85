import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { generationEvents, generationRequests } from "@/db/schema";
import type { NewGenerationEvent } from "../event-log";

/*
 * Order: a stream resumes after the `seq` of the last event it sent, so within one job rows must
 * become visible in `seq` order — a row committed late with a smaller `seq` than one already sent
 * would be skipped. Every insert therefore holds the job's row lock when it draws its `seq`: the
 * statements that change the job insert from the updated row (a CTE), and `appendEvents` locks the
 * row first (`for no key update`). Two writers of one job thus commit one after the other, in
 * `seq` order; writers of different jobs do not wait for each other.
 */

/**
 * Appends events to one job, in order (inside the caller's transaction when given one), holding
 * the job's row lock (see the note on order above). A missing job gets none.
 */
export async function appendEvents(db: Executor, generationId: string, events: NewGenerationEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.execute(
    sql`with job as (select id from ${generationRequests} where id = ${generationId}::text for no key update) ${insertEventsFor("job", events)}`,
  );
}

/**
 * The insert of `events`, in order, for every row of the CTE named `jobs` (its `id` column), as
 * the body of a sibling CTE: the events commit in the very statement that changes the job.
 */
export function insertEventsFor(jobs: string, events: NewGenerationEvent[]): SQL {
  return insertEventListFor(jobs, JSON.stringify(events));
}

/**
 * `insertEventsFor` with the events as one JSON list (a value or a placeholder): the statement's
 * text does not depend on how many there are (one prepared statement; see `preparedStatement`).
 */
export function insertEventListFor(jobs: string, eventsJson: unknown): SQL {
  return sql`insert into ${generationEvents} (generation_id, kind, data)
    select j.id, e.value ->> 'kind', e.value -> 'data' from ${sql.identifier(jobs)} j, jsonb_array_elements(${eventsJson}::jsonb) with ordinality as e(value, ord) order by e.ord
    returning 1 as n`;
}
