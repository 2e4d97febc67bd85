/**
 * How long a test waits for something it needs before calling it a hang. A test waits for the
 * event or the condition itself; this bound only turns a hang into a failure that names what hung
 * (under the 30 s test timeout of vitest.config.ts), far beyond what the busiest machine takes.
 * A tight window instead fails whenever the machine is busy (field findings, item 14).
 */
export const HANG_MS = 25_000;
