import { checkJobStep, collectJobStep, failJob, giveUpJobStep, submitJobStep } from "@/lib/generation";
import { inngest } from "../../lib/jobs/client";
import { generationProviderCompleted, generationRequested } from "../../lib/jobs/events";

/**
 * Pause before each status check after the first, which the submit step makes itself. When the
 * provider's completion webhook can reach us, it is what ends the job and cancels this run: the
 * submit step's look 1 s after the submit shows the job start, then one check at 16 s and one a
 * minute are the fallback for a webhook lost (a 10 s job costs two calls into the function instead
 * of five; bench/RESULTS.md). Otherwise the checks find the end: quick at first, then once a
 * minute. Either way ≈ 2.6 h in all.
 */
const MAX_ROUNDS = 160;
const CALLBACK_PAUSES_S = [15];
export const waitSeconds = (round: number, callback: boolean) => (callback ? (CALLBACK_PAUSES_S[round] ?? 60) : Math.min(60, 2 ** round));

/**
 * One generation job through the provider: submit (once; a retry reuses the stored provider id)
 * and look at its status → wait, checking the status between waits to record logs and the move to
 * running, and to find the end when no webhook comes → fetch the result, re-host it, settle. The
 * provider's completion webhook (/webhooks/provider) ends the job itself, then sends
 * `generation/provider.completed`, which cancels the run wherever it stands (cancelOn; the wait
 * for the same event covers a server that delivers it to the wait first). Provider 429/5xx are
 * retried with backoff; when retries run out the failure handler refunds. Triggered with event id
 * `generation:<id>`, so a job has one run however often it is handed over.
 */
export const runGenerationFn = inngest.createFunction(
  {
    id: "run-generation",
    name: "Run a generation",
    retries: 5,
    triggers: [generationRequested],
    cancelOn: [{ event: generationProviderCompleted, match: "data.generationId" }],
    onFailure: async ({ event, error }) => {
      const id = (event.data.event.data as { generationId?: string }).generationId;
      if (id) await failJob(id, `The provider kept failing: ${error.message}`);
    },
  },
  async ({ event, step }) => {
    const id = event.data.generationId;
    let check = await step.run("submit", () => submitJobStep(id));
    const callback = check.callback ?? false;
    let moves = 0;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (check.state === "final") return { status: "final" };
      if (check.state === "done") {
        const collected = await step.run(moves ? `collect-${moves}` : "collect", () => collectJobStep(id));
        // Dropped unstarted at its provider and sent to the next route: checked on there.
        if (collected.status !== "moved") return collected;
        moves++;
        check = { state: "pending", logsSeen: 0 };
      }
      const woken = await step.waitForEvent(`wait-${round}`, {
        event: generationProviderCompleted,
        timeout: `${waitSeconds(round, callback)}s`,
        if: `async.data.generationId == "${id}"`,
      });
      // The webhook's handler ended the job before it sent the event: nothing left to do.
      if (woken) return { status: "final" };
      const logsSeen = check.logsSeen;
      check = await step.run(`check-${round}`, () => checkJobStep(id, logsSeen));
    }
    return step.run("give-up", () => giveUpJobStep(id));
  },
);
