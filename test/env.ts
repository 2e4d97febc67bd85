import { resetEnv } from "@/lib/core/env";

/** Runs `fn` with these variables set (configuration re-read), then removes them again. */
export async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  Object.assign(process.env, vars);
  resetEnv();
  try {
    return await fn();
  } finally {
    for (const name of Object.keys(vars)) delete process.env[name];
    resetEnv();
  }
}
