"use client";

import { useMutation } from "@tanstack/react-query";
import type { CoverAnswer } from "@/lib/integrations/covers/schemas";
import { apiFetch, ApiRequestError } from "@/lib/account/api-fetch";

export type GenerateInput = { artist: string; release_name: string; genre: string; text: string };
export type EditInput = {
  artist: string;
  release_name: string;
  genre: string;
  render_track_text: boolean;
  render_artist_text: boolean;
  reference_image?: string;
};

export function useGenerateCover(slug: string) {
  return useMutation({ mutationFn: (body: GenerateInput) => apiFetch<CoverAnswer>(`/integrations/${slug}`, { body }) });
}

export function useEditCover(slug: string) {
  return useMutation({ mutationFn: (body: EditInput) => apiFetch<CoverAnswer>(`/integrations/${slug}-edit`, { body }) });
}

/** Uploads a picked file (POST /me/uploads) and gives back its URL, for use as reference_image. */
export function useUploadReference() {
  return useMutation({
    mutationFn: async (file: File): Promise<string> => {
      const form = new FormData();
      form.set("file", file);
      const res = await fetch("/me/uploads", { method: "POST", body: form, credentials: "same-origin" });
      const data = (await res.json().catch(() => null)) as { url?: string; error?: string; message?: string } | null;
      if (!res.ok || !data?.url)
        throw new ApiRequestError(res.status, data?.error ?? "error", data?.message ?? `Upload failed (${res.status})`);
      return data.url;
    },
  });
}
