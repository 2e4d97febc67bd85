import { Middleware } from "inngest";
import type { JobEvent } from "@/db/schema";

/**
 * Embedded mode's hand-off from `inngest.send()` / `step.sendEvent()` to the executor. The client
 * carries this middleware only when no Inngest server is configured: instead of POSTing to the
 * event API, the events (already validated by their `eventType` schemas) are stored by the
 * installed executor, which answers with their ids just as the event API does.
 */
export type EventSink = (events: JobEvent[]) => Promise<{ ids: string[] }>;

const registry = globalThis as unknown as { __gwJobsSink?: EventSink };

/** Installs where embedded sends go (the running executor); returns a function that uninstalls it. */
export function installEventSink(sink: EventSink): () => void {
  registry.__gwJobsSink = sink;
  return () => {
    if (registry.__gwJobsSink === sink) registry.__gwJobsSink = undefined;
  };
}

export async function sinkEvents(events: JobEvent[]): Promise<{ ids: string[] }> {
  let sink = registry.__gwJobsSink;
  // Sent before any executor was installed (a script, or the first request racing start-up).
  sink ??= await (await import("./runtime")).defaultEventSink();
  return sink(events);
}

export class EmbeddedDispatch extends Middleware.BaseMiddleware {
  readonly id = "gw-embedded-dispatch";

  override async wrapSendEvent({ events }: Middleware.WrapSendEventArgs) {
    // Deliberately never calls next(): there is no event API to reach.
    // A JSON round trip, as over the wire: drops `validate` helpers and undefined, turns Dates into strings.
    return sinkEvents(JSON.parse(JSON.stringify(events)) as JobEvent[]);
  }
}
