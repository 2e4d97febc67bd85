"use client";

import { useLocale, useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { setLocaleAction } from "@/lib/i18n/actions";
import { locales } from "@/lib/core/locales";

const NAMES = { en: "English", ru: "Русский" } as const;

/** English | Русский: sets the locale cookie through a server action, then re-renders the page in it. */
export function LocaleSwitcher({ className = "" }: { className?: string }) {
  const current = useLocale();
  const t = useTranslations("common");
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <div role="group" aria-label={t("language")} className={`flex items-center gap-2 text-sm ${className}`} data-testid="locale-switcher">
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
            onClick={() =>
              start(async () => {
                await setLocaleAction(l);
                router.refresh();
              })
            }
            className={l === current ? "font-semibold text-slate-900" : "text-brand-700 hover:underline"}
          >
            {NAMES[l]}
          </button>
        </span>
      ))}
    </div>
  );
}
