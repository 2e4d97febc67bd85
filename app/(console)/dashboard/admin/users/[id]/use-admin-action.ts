"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import type { getAdminUserOrThrow } from "@/lib/admin/users/get-user";

export type AdminUser = Awaited<ReturnType<typeof getAdminUserOrThrow>>["user"];

/** Mutations go through the admin API; the server component re-reads afterwards (router.refresh). */
export function useAdminAction<T>(fn: (input: T) => Promise<unknown>) {
  const router = useRouter();
  return useMutation({ mutationFn: fn, onSuccess: () => router.refresh() });
}
