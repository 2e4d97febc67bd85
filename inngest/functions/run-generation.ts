import { checkJobStep, collectJobStep, failJob, giveUpJobStep, submitJobStep } from "@/lib/generation/job-steps";
import { inngest } from "../client";
import { generationProviderCompleted, generationRequested } from "../events";

/** Pause before each status check: quick at first, then once a minute (≈ 2.5 h in all). */
const MAX_ROUNDS = 160;
export const waitSeconds = (round: number) => Math.min(60, 2 ** round);

/**
 * One generation job through the provider: submit (once; a retry reuses the stored provider id)
 * → wait for the provider's webhook (/webhooks/provider sends `generation/provider.completed`),
 * checking the status between waits as the fallback → fetch the result, re-host it, settle.
 * Provider 429/5xx are retried with backoff; when retries run out the failure handler refunds.
 * Triggered with event id `generation:<id>`, so a job has one run however often it is handed over.
 */
export const runGenerationFn = inngest.createFunction(
  {
    id: "run-generation",
    name: "Run a generation",
    retries: 5,
    triggers: [generationRequested],
    onFailure: async ({ event, error }) => {
      const id = (event.data.event.data as { generationId?: string }).generationId;
      if (id) await failJob(id, `The provider kept failing: ${error.message}`);
    },
  },
  async ({ event, step }) => {
    const id = event.data.generationId;
    const submitted = await step.run("submit", () => submitJobStep(id));
    if (submitted.state === "final") return { status: "final" };
    let logsSeen = 0;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const check = await step.run(`check-${round}`, () => checkJobStep(id, logsSeen));
      if (check.state === "final") return { status: "final" };
      if (check.state === "done") return step.run("collect", () => collectJobStep(id));
      logsSeen = check.logsSeen;
      await step.waitForEvent(`wait-${round}`, {
        event: generationProviderCompleted,
        timeout: `${waitSeconds(round)}s`,
        if: `async.data.generationId == "${id}"`,
      });
    }
    return step.run("give-up", () => giveUpJobStep(id));
  },
);
