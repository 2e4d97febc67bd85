"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

export function CopyButton({ text, label }: { text: string; label?: string }) {
  const t = useTranslations("ui");
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={async () => {
        await navigator.clipboard?.writeText(text).catch(() => {});
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      }}
      className="rounded border border-slate-600 px-2 py-0.5 text-xs text-slate-200 hover:bg-slate-700"
    >
      {copied ? t("copied") : (label ?? t("copy"))}
    </button>
  );
}
