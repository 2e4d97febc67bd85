"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { Alert, Field, Input } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { GENRES } from "@/lib/integrations/covers/genres";
import { buildCoverPrompt } from "@/lib/integrations/covers/prompt";
import { CoverResult } from "./cover-result";
import type { PlaygroundProps } from "./covers-playground";
import { useGenerateCover, type GenerateInput } from "./use-covers";

const textareaClass =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500";

export function GenerateCoverForm({
  slug,
  modelId,
  costLabel,
  limits,
  onGenerated,
}: PlaygroundProps & { onGenerated: (url: string) => void }) {
  const t = useTranslations("integrations");
  const [form, setForm] = useState<GenerateInput>({ artist: "", release_name: "", genre: "", text: "" });
  const generate = useGenerateCover(slug);
  const set = (field: keyof GenerateInput) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [field]: e.target.value }));
  // The prompt is built in the browser by the same function the server uses: what you see is what runs.
  const prompt = form.release_name && form.genre ? buildCoverPrompt(form) : null;

  function submit(e: FormEvent) {
    e.preventDefault();
    generate.mutate(form, { onSuccess: (answer) => onGenerated(answer.cover_image_url) });
  }

  return (
    <Card title={t("generate", { slug })}>
      <form onSubmit={submit} className="space-y-4" data-testid="generate-form">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t("artist")}>
            <Input name="artist" required maxLength={limits.artist} value={form.artist} onChange={set("artist")} />
          </Field>
          <Field label={t("release")}>
            <Input name="release_name" required maxLength={limits.release_name} value={form.release_name} onChange={set("release_name")} />
          </Field>
        </div>
        <Field label={t("genre")} hint={t("genreHint")}>
          <Input name="genre" required list="cover-genres" maxLength={limits.genre} value={form.genre} onChange={set("genre")} />
        </Field>
        <datalist id="cover-genres">
          {GENRES.map((g) => (
            <option key={g.genre} value={g.genre} />
          ))}
        </datalist>
        <Field label={t("text")} hint={t("textHint", { count: [...form.text].length, max: limits.text })}>
          <textarea
            name="text"
            required
            rows={4}
            maxLength={limits.text}
            value={form.text}
            onChange={set("text")}
            className={textareaClass}
          />
        </Field>
        <div className="rounded-md bg-slate-50 p-3 text-xs text-slate-700" data-testid="prompt-preview">
          <p className="mb-1 font-semibold text-slate-800">{t("promptPreview")}</p>
          {prompt ?? t("promptEmpty")}
        </div>
        <div className="flex items-center gap-3">
          <Button type="submit" disabled={generate.isPending}>
            {generate.isPending ? t("generating") : t("generateButton")}
          </Button>
          <span className="text-xs text-slate-600">
            {modelId}
            {costLabel && ` · ${t("perCover", { cost: costLabel })}`}
          </span>
        </div>
        {generate.error && <Alert>{generate.error.message}</Alert>}
      </form>
      {generate.data && (
        <div className="mt-5">
          <CoverResult answer={generate.data} label="generate" />
        </div>
      )}
    </Card>
  );
}
