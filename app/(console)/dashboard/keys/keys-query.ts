/** The query key every keys island shares, so a mutation anywhere refreshes the list. */
export const keysQueryKey = ["me", "keys"] as const;

export type CreatedKey = { id: string; name: string; key: string; expiresAt: string | null };
