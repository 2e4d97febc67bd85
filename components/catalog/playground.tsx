"use client";

import { useTranslations } from "next-intl";
import { useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, useState, useTransition } from "react";
import type { EstimatePreview } from "@/lib/catalog/estimate";
import type { RunCost, RetryState } from "@/lib/generation";
import { useFormat } from "@/lib/i18n/use-format";
import { CodeTabs } from "./code-tabs";
import { PlaygroundRun } from "./playground-run";
import { fieldsOf, initialValues, toInput, type JsonSchema } from "./schema-fields";
import { SchemaForm } from "./schema-form";
import { prefillFromSearch } from "./playground-prefill";

type Props = {
  modelId: string;
  schema: JsonSchema | null;
  overlay: JsonSchema | null;
  lang: "en" | "ru";
  baseUrl: string;
  initial: EstimatePreview;
  /** The server action that prices an input (no API key needed). */
  estimate: (modelId: string, input: Record<string, unknown>) => Promise<EstimatePreview>;
  /** A signed-in visitor gets the run button; anyone else a sign-in prompt. */
  signedIn: boolean;
  /** The server action that reads a finished run's reserved and settled credits. */
  runCost: (requestId: string) => Promise<RunCost | null>;
  /** The server action that tells whether a queued run's provider call is being retried. */
  runRetry?: (requestId: string) => Promise<RetryState | null>;
};

/**
 * A refused run's issues beside their fields. The form shows a bare "Required" as a quiet note
 * (the price does not depend on it); after a refused run it is the reason, so it reads as one.
 */
function refusedRunIssues(issues: Record<string, string>, required: string): Record<string, string> {
  return Object.fromEntries(Object.entries(issues).map(([field, message]) => [field, message === "Required" ? required : message]));
}

export function Playground({ modelId, schema, overlay, lang, baseUrl, initial, estimate, signedIn, runCost, runRetry }: Props) {
  const fields = useMemo(() => fieldsOf(schema, lang === "ru" ? overlay : null), [schema, overlay, lang]);
  // "Run again" from an activity record opens the page with that run's input in ?input=.
  const search = useSearchParams();
  const [values, setValues] = useState(() => ({ ...initialValues(fields), ...prefillFromSearch(search.toString(), fields) }));
  // Issues from a refused run (400 invalid_body), shown beside their fields until the next edit.
  const [runIssues, setRunIssues] = useState<Record<string, string>>({});
  const [result, setResult] = useState<EstimatePreview>(initial);
  const [pending, startTransition] = useTransition();
  const input = useMemo(() => toInput(fields, values), [fields, values]);
  const key = JSON.stringify(input);
  const seq = useRef(0);
  // The server's estimate is for the default input: a prefilled form asks for its own at once.
  const first = useRef(!search.has("input"));

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const mine = ++seq.current;
    const timer = setTimeout(() => {
      startTransition(async () => {
        const next = await estimate(modelId, JSON.parse(key) as Record<string, unknown>);
        if (mine === seq.current) setResult(next);
      });
    }, 250);
    return () => clearTimeout(timer);
  }, [key, modelId, estimate]);

  const errors = {
    ...Object.fromEntries(result.issues.filter((i) => i.path.length > 0).map((i) => [i.path[0]!, i.message])),
    ...runIssues,
  };
  const e = result.estimate;
  const t = useTranslations("playground");
  const f = useFormat();
  return (
    <div className="grid gap-8 lg:grid-cols-2">
      <section aria-label={t("title")} className="min-w-0 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 className="mb-4 font-semibold text-slate-900">{t("title")}</h2>
        <SchemaForm
          fields={fields}
          values={values}
          errors={errors}
          customLabel={t("custom")}
          onChange={(name, value) => {
            setValues((v) => ({ ...v, [name]: value }));
            setRunIssues((current) => {
              const next = { ...current };
              delete next[name];
              return next;
            });
          }}
        />
        <div className="mt-6 rounded-md bg-slate-50 p-4" aria-live="polite">
          <p className="text-xs font-medium uppercase tracking-wider text-slate-600">{t("price")}</p>
          {e ? (
            <>
              <p className={`text-2xl font-semibold text-slate-900 ${pending ? "opacity-60" : ""}`} data-testid="estimate-cost">
                {f.money(e.estimatedCostCredits, "charge")}
              </p>
              <p className="text-sm text-slate-600" data-testid="estimate-detail">
                {f.quantity(e.quantity, e.priceUnit)} × {f.rubles(e.estimatedPriceRub, "unitPrice")}
              </p>
            </>
          ) : (
            <p className="text-sm text-amber-700" data-testid="estimate-cost">
              {t("cannot")}
            </p>
          )}
        </div>
        <div id="playground-run" className="mt-4">
          <PlaygroundRun
            modelId={modelId}
            input={input}
            signedIn={signedIn}
            onIssues={(issues) => setRunIssues(refusedRunIssues(issues, t("requiredToRun")))}
            runCost={runCost}
            runRetry={runRetry}
          />
        </div>
      </section>
      <section aria-label="API" className="min-w-0">
        <CodeTabs baseUrl={baseUrl} modelId={modelId} schema={schema} input={input} />
      </section>
    </div>
  );
}
