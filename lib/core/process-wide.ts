/**
 * One value per process, shared by every copy of the module that asks for it. The production
 * build copies a module into several server chunks (lib/core/brand.ts), so module-level state would be
 * kept once per copy: a cache an admin route clears would stay full in the /run route's copy, a
 * per-user cap would count each route's streams apart. The value lives under a `Symbol.for` key
 * on `globalThis`, which every copy shares.
 */
export function processWide<T>(name: string, create: () => T): T {
  const slots = globalThis as unknown as Record<symbol, T | undefined>;
  const key = Symbol.for(`generation-gateway:${name}`);
  return (slots[key] ??= create());
}
