/**
 * The generation store: every statement a generation's life writes — its creation with the
 * ledger's reserve, its progress, its ending with the settlement or refund — and the reads the
 * engine makes of it, and when a run's progress is written (`journal.ts`). The rest of the engine decides; this writes. Money moves only through the
 * ledger's functions, composed here.
 */
export { insertGeneration, type NewGenerationRow } from "./create";
export {
  generationById,
  generationEnded,
  markInProgress,
  setQueuePosition,
  storeProgress,
  storeAttempts,
  storeFailover,
  storeSubmission,
  type Submission,
} from "./progress";
export { appendEvents } from "./job-events";
export { endingPath, writeEnding, type Ended, type Ending, type EndingPath } from "./ending";
export { markWrittenStored } from "./asset-marks";
export { NOTHING_UNRECORDED, RECORD_PROGRESS_AFTER_MS, RunJournal, type Unrecorded } from "./journal";
