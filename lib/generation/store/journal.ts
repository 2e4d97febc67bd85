import type { WrittenAsset } from "@/lib/assets/rehost";
import { log } from "@/lib/core/logger";
import { progressEvent, type NewGenerationEvent } from "../event-log";
import type { Submission } from "./progress";
import type { GenerationRow } from "../types";

/** What a run did and has not written yet: its ending's statement writes it first. */
export type Unrecorded = { submission: Submission | null; events: NewGenerationEvent[]; written: WrittenAsset[] };

export const NOTHING_UNRECORDED: Unrecorded = Object.freeze({ submission: null, events: [], written: [] });
const nothing = (): Unrecorded => ({ submission: null, events: [], written: [] });

/** How long a step of a run may wait for the ending's statement before it is written on its own. */
export const RECORD_PROGRESS_AFTER_MS = 250;

/**
 * The progress of one run (the provider's id with its `submitted` event, `storing`, the `stored`
 * mark of each copied file), kept for the ending, whose single statement writes it when the run
 * is quick. Nothing waits longer than RECORD_PROGRESS_AFTER_MS to be written: past it, what is
 * pending is written (stream watchers see it, and a crash resumes the provider request), and each
 * later step at most that long after it happened — by the ending's statement when the ending comes
 * first, as it does after a long provider wait (`storing` and the marks of a quick copy). Why,
 * with the figures: docs/engine.md#runjournal.
 */
export class RunJournal {
  private pending: Unrecorded = nothing();
  private closed = false;
  private writes: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | null = null;

  /** `record` writes progress now (lifecycle.ts recordProgress); the journal only decides when. */
  constructor(
    private readonly row: GenerationRow,
    private readonly record: (progress: Unrecorded) => Promise<void>,
    private readonly afterMs = RECORD_PROGRESS_AFTER_MS,
  ) {
    this.due();
  }

  submitted(submission: Submission): void {
    this.pending.submission = submission;
    this.pending.events.push(progressEvent("submitted"));
    this.due();
  }

  progress(event: NewGenerationEvent): void {
    this.pending.events.push(event);
    this.due();
  }

  /** `RehostOptions.deferStored`: the ending (or the journal's next write) marks the file stored. */
  readonly deferStored = (asset: WrittenAsset): boolean => {
    if (this.closed) return false;
    this.pending.written.push(asset);
    this.due();
    return true;
  };

  /** Makes sure what is pending gets written within afterMs, unless the ending takes it first. */
  private due(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, this.afterMs);
  }

  /** Stops recording: waits for writes under way and hands what is left to the ending. */
  async close(): Promise<Unrecorded> {
    if (!this.closed) {
      this.closed = true;
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
    }
    await this.writes;
    const left = this.pending;
    this.pending = nothing();
    return left;
  }

  private flush(): void {
    if (this.closed) return;
    const taken = this.pending;
    if (!taken.submission && taken.events.length === 0 && taken.written.length === 0) return;
    this.pending = nothing();
    const { row } = this;
    this.writes = this.writes
      .then(() => this.record(taken))
      .then(
        () => undefined,
        (error) => {
          // Left for the ending, ahead of anything recorded since.
          log.warn("run progress not written yet; the ending will", { generationId: row.id, error });
          const later = this.pending;
          this.pending = {
            submission: later.submission ?? taken.submission,
            events: [...taken.events, ...later.events],
            written: [...taken.written, ...later.written],
          };
        },
      );
  }
}
