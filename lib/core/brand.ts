/**
 * Class identity that survives the bundler. The production build copies a module into several
 * server chunks, so an error made by one copy (by a provider kept on `globalThis`, say) fails
 * `instanceof` against the same class imported by another chunk. That only happens under
 * `next start`, never in vitest, which runs the sources.
 *
 * A family of classes is branded instead: the base class carries a tag from the process-wide
 * symbol registry (`Symbol.for`, one per process, shared by every copy), and the family exposes
 * one type guard that checks it. ESLint refuses `instanceof` on our own classes (eslint.config.mjs).
 */
export type Brand<T extends object> = {
  /** Marks a class (and its subclasses) as a member of the family; call once, after the class. */
  mark(target: abstract new (...args: never[]) => T): void;
  /** The family's type guard. */
  is(value: unknown): value is T;
};

export function brand<T extends object>(family: string): Brand<T> {
  const tag = Symbol.for(`generation-gateway:${family}`);
  return {
    mark(target) {
      // On the prototype: not an own property, so it never shows in logs or JSON.
      Object.defineProperty(target.prototype, tag, { value: true });
    },
    is(value): value is T {
      return typeof value === "object" && value !== null && tag in value;
    },
  };
}
