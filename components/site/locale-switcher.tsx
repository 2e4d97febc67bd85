"use client";

import { useLocale, useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { setLocaleAction } from "@/lib/i18n/actions";
import { locales, type Locale } from "@/lib/core/locales";

const NAMES = { en: "English", ru: "Русский" } as const;

/**
 * English | Русский: sets the locale cookie through a server action, then re-renders the page in
 * it. While that runs (a round trip and a render, up to a second) the chosen language is marked
 * and a status says so.
 */
export function LocaleSwitcher({ className = "" }: { className?: string }) {
  const current = useLocale();
  const t = useTranslations("common");
  const router = useRouter();
  const [pending, start] = useTransition();
  const [target, setTarget] = useState<Locale | null>(null);
  const switching = pending && target !== null && target !== current;
  return (
    <div
      role="group"
      aria-label={t("language")}
      aria-busy={switching}
      className={`flex items-center gap-2 text-sm ${className}`}
      data-testid="locale-switcher"
    >
      {locales.map((l, i) => (
        <span key={l} className="flex items-center gap-2">
          {i > 0 && (
            <span aria-hidden className="text-slate-400">
              |
            </span>
          )}
          <button
            type="button"
            lang={l}
            aria-pressed={l === current}
            disabled={pending}
            onClick={() => {
              setTarget(l);
              start(async () => {
                await setLocaleAction(l);
                router.refresh();
              });
            }}
            className={`${l === current ? "font-semibold text-slate-900" : "text-brand-700 hover:underline"} ${
              switching && l === target ? "cursor-wait animate-pulse underline" : ""
            } disabled:cursor-wait`}
          >
            {NAMES[l]}
          </button>
        </span>
      ))}
      <span role="status" className="text-xs text-slate-600" data-testid="locale-status">
        {switching ? t("switchingLanguage") : null}
      </span>
    </div>
  );
}
