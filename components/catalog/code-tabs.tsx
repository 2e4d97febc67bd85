"use client";

import { useTranslations } from "next-intl";
import { useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { exampleInput } from "@/lib/site/llms/example-input";
import type { JsonSchema } from "./schema-fields";
import { codeSamples } from "./code-samples";
import { CopyButton } from "./copy-button";

type Block = { title: string; code: string; testId: string };
type Tab = { id: "curl" | "javascript" | "python"; label: string; blocks: Block[] };

function CodeBlock({ title, code, testId }: Block) {
  return (
    <figure className="overflow-hidden rounded-lg bg-slate-900">
      <figcaption className="flex items-center justify-between gap-2 border-b border-slate-700 px-4 py-2 text-xs text-slate-300">
        <span>{title}</span>
        <CopyButton text={code} />
      </figcaption>
      <pre tabIndex={0} className="overflow-x-auto p-4 text-xs leading-relaxed text-slate-100" data-testid={testId}>
        {code}
      </pre>
    </figure>
  );
}

/**
 * The model's API code in curl, JavaScript and Python tabs (the WAI-ARIA tabs pattern: arrow
 * keys, Home and End move between tabs and select them). The input is the form's, with the
 * model's example value for any required field the form leaves empty, so the code runs as shown.
 */
export function CodeTabs({
  baseUrl,
  modelId,
  schema,
  input,
}: {
  baseUrl: string;
  modelId: string;
  schema: JsonSchema | null;
  input: Record<string, unknown>;
}) {
  const t = useTranslations("playground");
  const prefix = useId();
  const [selected, setSelected] = useState(0);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const full = useMemo(() => ({ ...exampleInput(schema), ...input }), [schema, input]);
  const code = codeSamples(baseUrl, modelId, full);
  const tabs: Tab[] = [
    {
      id: "curl",
      label: "curl",
      blocks: [
        { title: t("curlRun"), code: code.run, testId: "curl-run" },
        { title: t("curlGenerate"), code: code.generate, testId: "curl-generate" },
      ],
    },
    { id: "javascript", label: "JavaScript", blocks: [{ title: t("codeJs"), code: code.javascript, testId: "code-javascript" }] },
    { id: "python", label: "Python", blocks: [{ title: t("codePython"), code: code.python, testId: "code-python" }] },
  ];
  const select = (i: number) => {
    const next = (i + tabs.length) % tabs.length;
    setSelected(next);
    refs.current[next]?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: selected + 1, ArrowLeft: selected - 1, Home: 0, End: tabs.length - 1 };
    if (!(e.key in moves)) return;
    e.preventDefault();
    select(moves[e.key]!);
  };
  return (
    <div data-testid="code-tabs">
      <h2 className="mb-3 font-semibold text-slate-900">{t("codeTitle")}</h2>
      <div role="tablist" aria-label={t("codeTitle")} className="mb-3 flex gap-1 border-b border-slate-200" onKeyDown={onKeyDown}>
        {tabs.map((tab, i) => (
          <button
            key={tab.id}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${prefix}-tab-${tab.id}`}
            aria-selected={i === selected}
            aria-controls={`${prefix}-panel-${tab.id}`}
            tabIndex={i === selected ? 0 : -1}
            onClick={() => setSelected(i)}
            className={`-mb-px rounded-t-md border-b-2 px-3 py-1.5 text-sm font-medium ${i === selected ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900"}`}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab, i) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${prefix}-panel-${tab.id}`}
          aria-labelledby={`${prefix}-tab-${tab.id}`}
          hidden={i !== selected}
          className="space-y-4"
        >
          {tab.blocks.map((b) => (
            <CodeBlock key={b.testId} {...b} />
          ))}
        </div>
      ))}
    </div>
  );
}
