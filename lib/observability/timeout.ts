/**
 * `promise`, or a rejection with `message` after `ms`: a check that hangs reports instead of hanging.
 * A timer that fires late is not a late answer: when the event loop was busy past `ms` (a loaded
 * machine, a long synchronous task), the answers that arrived meanwhile are still queued behind the
 * timer, so the timeout waits one turn of the loop (`setImmediate` runs after pending I/O) and lets
 * them win.
 */
export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let turn: ReturnType<typeof setImmediate> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      turn = setImmediate(() => reject(new Error(message)));
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
    if (turn) clearImmediate(turn);
  }
}
