/**
 * Cache entries that keep a value, not the promise of it. A promise kept alive keeps alive the
 * request that created it: Node stores each AsyncLocalStorage's current value on every promise
 * made in its context, and Next.js runs a request in stores that reach its whole request and
 * response. A heap snapshot under the field bench (bench/RESULTS.md) found 6,539 finished
 * requests held that way by the simulator's 10,000 cached outputs, a third of the heap.
 * A `Settling` entry holds its promise only until it settles, then only its value.
 */
export type Settling<T> = { pending: Promise<T> | null; value: T | undefined };

/** An entry for `promise`; `onRejected` runs if it fails (its owner forgets the entry there). */
export function settling<T>(promise: Promise<T>, onRejected?: (error: unknown) => void): Settling<T> {
  const entry: Settling<T> = { pending: promise, value: undefined };
  promise.then(
    (value) => {
      entry.value = value;
      entry.pending = null;
    },
    (error: unknown) => onRejected?.(error),
  );
  return entry;
}

/** The entry's value, as a promise made now in the caller's context (the same promise while pending). */
export function valueOf<T>(entry: Settling<T>): Promise<T> {
  return entry.pending ?? Promise.resolve(entry.value as T);
}

/** True once the entry's promise has resolved. */
export const isSettled = <T>(entry: Settling<T>): boolean => entry.pending === null;
