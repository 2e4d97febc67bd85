"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { Alert, Field, Input, Select } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CoverResult } from "./cover-result";
import type { PlaygroundProps } from "./covers-playground";
import { OverlayPreview } from "./overlay-preview";
import { useEditCover, useUploadReference } from "./use-covers";

type Source = "upload" | "url" | "generated" | "none";

export function EditCoverForm({ slug, costLabel, limits, lastCover }: PlaygroundProps & { lastCover: string | null }) {
  const t = useTranslations("integrations");
  const [names, setNames] = useState({ artist: "", release_name: "", genre: "" });
  const [render, setRender] = useState({ track: true, artist: true });
  const [source, setSource] = useState<Source>("upload");
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState("");
  const [fileUrl, setFileUrl] = useState<string | null>(null);
  const edit = useEditCover(slug);
  const uploadReference = useUploadReference();

  function pick(picked: File | null) {
    if (fileUrl) URL.revokeObjectURL(fileUrl);
    setFile(picked);
    setFileUrl(picked ? URL.createObjectURL(picked) : null);
  }

  const previewImage = source === "upload" ? fileUrl : source === "url" ? url || null : source === "generated" ? lastCover : null;
  const set = (field: keyof typeof names) => (e: { target: { value: string } }) => setNames((n) => ({ ...n, [field]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    let reference: string | undefined;
    if (source === "upload" && file) reference = await uploadReference.mutateAsync(file).catch(() => undefined);
    if (source === "upload" && !reference) return;
    if (source === "url") reference = url;
    if (source === "generated" && lastCover) reference = lastCover;
    edit.mutate({ ...names, render_track_text: render.track, render_artist_text: render.artist, reference_image: reference });
  }

  const error = uploadReference.error ?? edit.error;
  return (
    <Card title={t("edit", { slug })}>
      <form onSubmit={submit} className="space-y-4" data-testid="edit-form">
        <div className="grid gap-4 sm:grid-cols-3">
          <Field label={t("artist")}>
            <Input name="artist" required maxLength={limits.artist} value={names.artist} onChange={set("artist")} />
          </Field>
          <Field label={t("release")}>
            <Input name="release_name" required maxLength={limits.release_name} value={names.release_name} onChange={set("release_name")} />
          </Field>
          <Field label={t("genre")}>
            <Input name="genre" required maxLength={limits.genre} value={names.genre} onChange={set("genre")} />
          </Field>
        </div>
        <div className="flex flex-wrap gap-4 text-sm text-slate-700">
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={render.track} onChange={(e) => setRender((r) => ({ ...r, track: e.target.checked }))} />{" "}
            {t("drawRelease")}
          </label>
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={render.artist} onChange={(e) => setRender((r) => ({ ...r, artist: e.target.checked }))} />{" "}
            {t("drawArtist")}
          </label>
        </div>
        <Field label={t("source")}>
          <Select name="source" value={source} onChange={(e) => setSource(e.target.value as Source)}>
            <option value="upload">{t("upload")}</option>
            <option value="url">{t("url")}</option>
            <option value="generated" disabled={!lastCover}>
              {t("generated")}
            </option>
            <option value="none">
              {t("newOne")}
              {costLabel ? ` (${costLabel})` : ""}
            </option>
          </Select>
        </Field>
        {source === "upload" && (
          <Input
            name="file"
            type="file"
            aria-label={t("upload")}
            accept="image/*"
            required
            onChange={(e) => pick(e.target.files?.[0] ?? null)}
          />
        )}
        {source === "url" && (
          <Input
            name="reference_image"
            type="url"
            aria-label={t("url")}
            required
            placeholder="https://…"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        )}
        <OverlayPreview image={previewImage} title={render.track ? names.release_name : ""} artist={render.artist ? names.artist : ""} />
        <Button type="submit" disabled={edit.isPending || uploadReference.isPending || (!render.track && !render.artist)}>
          {uploadReference.isPending ? t("uploading") : edit.isPending ? t("rendering") : t("write")}
        </Button>
        {error && <Alert>{error.message}</Alert>}
      </form>
      {edit.data && (
        <div className="mt-5">
          <CoverResult answer={edit.data} label="edit" />
        </div>
      )}
    </Card>
  );
}
