/** How late a timer may fire before the loop counts as having been busy. */
const LATE_MS = 50;

/**
 * `promise`, or a rejection with `message` after `ms`: a check that hangs reports instead of hanging.
 * A timer that fires late is not a late answer: when the event loop was busy past `ms` (a loaded
 * machine, a long synchronous task), the request may not even have left, and the answers that
 * arrived meanwhile are still queued behind the timer. So a late timer gives the check as much
 * time again as the loop was busy (up to `ms`: a hung check still reports within 2 × `ms`), and the
 * final timeout waits one turn of the loop (`setImmediate` runs after pending I/O) so they win.
 */
export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let turn: ReturnType<typeof setImmediate> | undefined;
  const due = Date.now() + ms;
  const timeout = new Promise<never>((_, reject) => {
    const expire = () => (turn = setImmediate(() => reject(new Error(message))));
    timer = setTimeout(() => {
      const late = Date.now() - due;
      if (late > LATE_MS) timer = setTimeout(expire, Math.min(late, ms));
      else expire();
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
    if (turn) clearImmediate(turn);
  }
}
