/** A user's text as a literal inside a LIKE/ILIKE pattern (its `\`, `%` and `_` escaped). */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
