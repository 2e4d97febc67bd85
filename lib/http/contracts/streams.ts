import { z } from "zod";

// Server-sent event streams of a generation, on both surfaces: the query, headers and responses.
export const sse = (description: string) => ({ description, contentType: "text/event-stream" });
export const streamQuery = z.object({
  lastEventId: z.string().max(64).optional().meta({
    description: "For EventSource polyfills: the id of the last event received, as the `Last-Event-ID` header carries it (the header wins)",
  }),
});
export const streamHeaders = z.object({
  "Last-Event-ID": z
    .string()
    .optional()
    .meta({ description: "Sent by EventSource on a reconnect: the id of the last event received; the stream resumes after it" }),
});
export const RESUME =
  " The stream opens with `retry: 1000`; every event has an `id:` (its position in the job's event log). A reconnect with `Last-Event-ID` (or `lastEventId`) resumes after that event without replaying the history. " +
  "Once the request is final, a first connection (no Last-Event-ID) gets the final event alone, with its id, and the stream closes; " +
  "a reconnect whose Last-Event-ID is at or past the final event is answered 204 No Content (EventSource stops reconnecting). " +
  "A reconnect whose Last-Event-ID is before the final event gets the rest, then the stream closes. Comment heartbeats every 15 s.";
export const streamDone = {
  description: "A reconnect at or past the final event: nothing more to stream (EventSource stops reconnecting)",
};
