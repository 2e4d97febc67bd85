"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, type ReactNode } from "react";
import { Button, type ButtonVariant } from "@/components/ui/button";

/** A modal confirmation (native <dialog>): focus is trapped and Escape cancels. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  variant = "danger",
  pending = false,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  variant?: ButtonVariant;
  pending?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const t = useTranslations("ui");
  const ref = useRef<HTMLDialogElement>(null);
  // A page may hold several dialogs (a ban, a credit grant, a key's deletion): each its own title id.
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-labelledby={titleId}
      className="m-auto w-full max-w-md rounded-lg border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="space-y-3 p-6">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {children && <div className="text-sm text-slate-600">{children}</div>}
      </div>
      <div className="flex justify-end gap-2 border-t border-slate-100 bg-slate-50 px-6 py-3">
        <Button variant="secondary" onClick={onClose} disabled={pending}>
          {t("cancel")}
        </Button>
        <Button variant={variant} onClick={onConfirm} disabled={pending}>
          {pending ? t("working") : confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}
