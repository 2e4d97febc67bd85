import { serve } from "inngest/next";
import type { InngestFunction } from "inngest";
import { inngest } from "@/inngest/client";
import { functions as appFunctions } from "@/inngest/functions";
import { ManualClock, type Clock } from "./clock";
import { JobExecutor, type ExecutorOptions } from "./executor";
import { handlerTransport } from "./protocol";
import { installExecutor, notifyFinished } from "./runtime";

/**
 * An embedded executor for tests, in manual mode: nothing runs until the test calls `drain()`,
 * `advance(ms)` or `runUntilIdle()`, and time only moves with its ManualClock. It is installed as
 * the process's executor, so `inngest.send()` in the code under test reaches it.
 *
 *   const jobs = await startTestExecutor();              // the app's functions
 *   await call(POST, "/queue/…", { key, body });         // sends an event
 *   await jobs.drain();                                  // runs everything due
 *   await jobs.advance("10m");                           // a sleep or retry later
 *
 * Pass `manual: false, clock: systemClock` and call `start()` for production-like auto mode.
 */
export async function startTestExecutor<C extends Clock = ManualClock>(
  options: { functions?: InngestFunction.Any[]; clock?: C } & Partial<Omit<ExecutorOptions, "clock">> = {},
) {
  const { functions = appFunctions, clock = new ManualClock() as Clock as C, ...rest } = options;
  const signingKey = inngest.signingKey;
  if (!signingKey) throw new Error("tests run the embedded client; unset INNGEST_* for them");
  const handler = serve({ client: inngest, functions, enableUnauthedSync: false });
  const executor = await JobExecutor.create({
    transport: handlerTransport(handler, signingKey),
    clock,
    manual: true,
    concurrency: 16,
    onFinished: notifyFinished,
    ...rest,
  });
  const uninstall = installExecutor(executor);
  return Object.assign(executor, { clock, uninstall, handler });
}
