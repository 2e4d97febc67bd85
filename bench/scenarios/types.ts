import type { LoadResult } from "../lib/load";
import type { Row } from "../lib/report";
import type { BenchServer } from "../lib/server";

export type BenchContext = {
  server: BenchServer;
  /** `GET /health` at concurrency 16, measured at the start of this run. */
  baseline: LoadResult;
};

/** A benchmark scenario: each prints its figures beside the run's baseline. */
export type Scenario = {
  name: string;
  description: string;
  /** Long: runs only when named (`npm run bench field`), not in a plain `npm run bench`. */
  onlyByName?: boolean;
  run: (ctx: BenchContext) => Promise<{ title: string; rows: Row[]; data: unknown; tables?: { title: string; rows: Row[] }[] }>;
};
