import type { InngestFunction } from "inngest";

type Provided = { load?: () => Promise<InngestFunction.Any[]> };
const provided = ((globalThis as unknown as { __gwJobFunctions?: Provided }).__gwJobFunctions ??= {});

/**
 * The app's functions sit above the jobs runtime (they are the domain's work; the runtime only
 * drives them), so they are handed to it at start-up: lib/server/start.ts and test/setup.ts call
 * this with a loader of inngest/functions.
 */
export function provideJobFunctions(load: () => Promise<InngestFunction.Any[]>): void {
  provided.load = load;
}

export async function jobFunctions(): Promise<InngestFunction.Any[]> {
  if (!provided.load) throw new Error("no job functions were provided: call provideJobFunctions() at start-up");
  return provided.load();
}
