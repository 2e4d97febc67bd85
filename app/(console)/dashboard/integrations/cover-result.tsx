import { useTranslations } from "next-intl";
import type { CoverAnswer } from "@/lib/integrations/covers/schemas";

/** The server's answer: the stored cover, and the prompt it was generated from. */
export function CoverResult({ answer, label }: { answer: CoverAnswer; label: string }) {
  const t = useTranslations("integrations");
  return (
    <figure className="space-y-2" data-testid={`${label}-result`}>
      {/* eslint-disable-next-line @next/next/no-img-element -- a user's stored asset, shown as is */}
      <img
        src={answer.cover_image_url}
        alt={t("alt", { release: answer.release_name, artist: answer.artist })}
        className="aspect-square w-full rounded-md border border-slate-200 object-cover"
      />
      <figcaption className="space-y-1 text-xs text-slate-600">
        <a href={answer.cover_image_url} target="_blank" rel="noreferrer" className="break-all font-mono text-brand-700 underline">
          {answer.cover_image_url}
        </a>
        {answer.cover_image_prompt && <p className="whitespace-pre-wrap">{t("prompt", { prompt: answer.cover_image_prompt })}</p>}
      </figcaption>
    </figure>
  );
}
