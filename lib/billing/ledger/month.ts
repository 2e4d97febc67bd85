/** The UTC calendar month a moment falls in, as `YYYY-MM-01` (the key of a key's monthly spend). */
export const monthOf = (at: Date): string => `${at.toISOString().slice(0, 7)}-01`;
