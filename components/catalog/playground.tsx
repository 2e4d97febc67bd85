"use client";

import { useTranslations } from "next-intl";
import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState, useTransition } from "react";
import type { EstimatePreview } from "@/lib/catalog/estimate";
import type { RunCost, RetryState } from "@/lib/generation";
import { useFormat } from "@/lib/i18n/use-format";
import { IMAGE_SIZE_PRESETS } from "@/lib/pricing/image-sizes";
import { CodeTabs } from "./code-tabs";
import { PlaygroundRunControls } from "./playground-run";
import { RunOutput } from "./run-output";
import {
  fieldProblems,
  fieldsOf,
  humanizeOption,
  initialValues,
  toInput,
  type Field,
  type FieldProblem,
  type JsonSchema,
} from "./schema-fields";
import { SchemaForm } from "./schema-form";
import { prefillFromSearch } from "./playground-prefill";
import { usePlaygroundRun } from "./use-playground-run";

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

/** Option values the message files name (`playground.options.<value>`): snake_case words only. */
const NAMED_OPTION = /^[a-z0-9_]+$/;

/** "ru" → "русский" on a Russian page ("Russian" on an English one); undefined where the runtime cannot name it. */
function languageNames(locale: string, code: string): string | undefined {
  try {
    const name = new Intl.DisplayNames([locale], { type: "language" }).of(code);
    return name && name !== code ? name.charAt(0).toUpperCase() + name.slice(1) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The model page's playground, laid out as fal's is: the form on one side, and beside it the
 * output (progress, result, cost) kept in view while the form scrolls; on a phone the output
 * comes right under Run. The code samples follow below, full width. The form checks itself from
 * the schema before sending: a wrong field is marked where it is, and "Required" appears only
 * once the person has tried to run.
 */
export function Playground({ modelId, schema, overlay, lang, baseUrl, initial, estimate, signedIn, runCost, runRetry }: Props) {
  const fields = useMemo(() => fieldsOf(schema, lang === "ru" ? overlay : null), [schema, overlay, lang]);
  // "Run again" from an activity record opens the page with that run's input in ?input=.
  const search = useSearchParams();
  const [values, setValues] = useState(() => ({ ...initialValues(fields), ...prefillFromSearch(search.toString(), fields) }));
  // Issues from a refused run (400 invalid_body), shown beside their fields until the next edit.
  const [runIssues, setRunIssues] = useState<Record<string, string>>({});
  // Whether Run was pressed: only then is an empty required field an error.
  const [attempted, setAttempted] = useState(false);
  const [result, setResult] = useState<EstimatePreview>(initial);
  const [pending, startTransition] = useTransition();
  const input = useMemo(() => toInput(fields, values), [fields, values]);
  const key = JSON.stringify(input);
  const seq = useRef(0);
  // The server's estimate is for the default input: a prefilled form asks for its own at once.
  const first = useRef(!search.has("input"));
  const output = useRef<HTMLElement>(null);
  const t = useTranslations("playground");
  const f = useFormat();

  const onIssues = useCallback((issues: Record<string, string>) => setRunIssues(issues), []);
  const run = usePlaygroundRun({ modelId, signedIn, onIssues, runCost, runRetry });

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

  const problems = useMemo(() => fieldProblems(fields, values), [fields, values]);
  const say = (p: FieldProblem) =>
    p.kind === "required" ? t("requiredToRun") : t(`problems.${p.kind}`, "limit" in p ? { limit: p.limit } : {});
  // What stops a run: the schema's checks here; a missing field only once Run was pressed.
  const blocking = Object.entries(problems).filter(([, p]) => attempted || p.kind !== "required");
  const errors: Record<string, string> = {
    // The server's issues with the live input (a missing field is left to the check above).
    ...Object.fromEntries(
      result.issues.filter((i) => i.path.length > 0 && input[i.path[0]!] !== undefined).map((i) => [i.path[0]!, i.message]),
    ),
    ...Object.fromEntries(blocking.map(([name, p]) => [name, say(p)])),
    ...runIssues,
  };
  const blockingCount = attempted ? Object.keys(problems).length : 0;

  const optionLabel = (field: Field, value: string) => {
    const named = NAMED_OPTION.test(value) && t.has(`options.${value}` as "options.square_hd");
    // A language code (Whisper's `language`) reads as the language's name in the page's language.
    const language = !named && field.name === "language" && /^[a-z]{2}$/.test(value) ? languageNames(lang, value) : undefined;
    const words = named ? t(`options.${value}` as "options.square_hd") : (language ?? humanizeOption(value));
    const size = field.kind === "size" ? IMAGE_SIZE_PRESETS[value] : undefined;
    return size ? `${words} (${size.width}×${size.height})` : words;
  };

  function onRun() {
    setAttempted(true);
    const names = Object.keys(problems);
    if (names.length > 0) {
      // Nothing is sent: the first wrong field takes the focus, its message under it.
      document.getElementById(`field-${names[0]}`)?.focus();
      return;
    }
    void run.run(input);
    // On a phone the output sits under the form: bring its top into view when Run left it below.
    const box = output.current?.getBoundingClientRect();
    if (box && box.top > window.innerHeight * 0.6) output.current!.scrollIntoView({ block: "start", behavior: "smooth" });
  }

  // When the run ends, its output is brought into view if it is not (a result taller than what was
  // left of the form pushed the sticky panel up; on a phone it may sit below the fold).
  const ended = run.state.phase === "completed" || run.state.phase === "failed" || run.state.phase === "cancelled";
  useEffect(() => {
    const box = output.current?.getBoundingClientRect();
    if (ended && box && (box.top < 0 || box.bottom > window.innerHeight)) output.current!.scrollIntoView({ block: "nearest" });
  }, [ended]);

  const e = result.estimate;
  return (
    <div className="space-y-8">
      <div className="grid items-start gap-8 lg:grid-cols-2">
        <section aria-labelledby="playground-title" className="min-w-0 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <h2 id="playground-title" className="mb-4 font-semibold text-slate-900">
            {t("title")}
          </h2>
          <SchemaForm
            fields={fields}
            values={values}
            errors={errors}
            customLabel={t("custom")}
            optionLabel={optionLabel}
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
            <PlaygroundRunControls
              modelId={modelId}
              signedIn={signedIn}
              run={run}
              estimateCredits={e ? e.estimatedCostCredits : null}
              blockingFields={blockingCount}
              onRun={onRun}
            />
          </div>
        </section>
        <RunOutput ref={output} run={run} />
      </div>
      <section aria-label="API" className="min-w-0">
        <CodeTabs baseUrl={baseUrl} modelId={modelId} schema={schema} input={input} />
      </section>
    </div>
  );
}
