"use client";

import { useTranslations } from "next-intl";
import type { Field, FormValue } from "./schema-fields";

const input =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500";

type Props = {
  fields: Field[];
  values: Record<string, FormValue>;
  /** Field → what is wrong with it, in words (shown under the field, which is marked invalid). */
  errors: Record<string, string>;
  onChange: (name: string, value: FormValue) => void;
  customLabel: string;
  /** An enum value as the person reads it ("Square HD (1024×1024)"); the value sent stays the schema's. */
  optionLabel: (field: Field, value: string) => string;
};

/** What every control of a field carries: its id, and when it is wrong, the invalid mark and its message. */
const a11yOf = (f: Field, error: string | undefined) => ({
  id: `field-${f.name}`,
  "aria-invalid": error ? true : undefined,
  "aria-describedby": error ? `field-${f.name}-error` : undefined,
  "aria-required": f.required || undefined,
});

function Control({
  field: f,
  value,
  onChange,
  customLabel,
  optionLabel,
  error,
}: {
  field: Field;
  value: FormValue | undefined;
  onChange: (v: FormValue) => void;
  customLabel: string;
  optionLabel: Props["optionLabel"];
  error: string | undefined;
}) {
  const a = a11yOf(f, error);
  const tp = useTranslations("playground");
  const invalid = error ? "border-red-500" : "";
  const text = typeof value === "string" ? value : "";
  switch (f.kind) {
    case "boolean":
      return <input {...a} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} className="h-4 w-4" />;
    case "select":
      return (
        <select {...a} value={text} onChange={(e) => onChange(e.target.value)} className={`${input} ${invalid}`}>
          {!f.required && f.schema.default === undefined && <option value="">—</option>}
          {f.options!.map((o) => (
            <option key={o} value={o}>
              {optionLabel(f, o)}
            </option>
          ))}
        </select>
      );
    case "size": {
      const custom = typeof value === "object";
      return (
        <div className="space-y-2">
          <select
            {...a}
            value={custom ? "__custom" : text}
            onChange={(e) => onChange(e.target.value === "__custom" ? { width: "1024", height: "1024" } : e.target.value)}
            className={`${input} ${invalid}`}
          >
            {f.options!.map((o) => (
              <option key={o} value={o}>
                {optionLabel(f, o)}
              </option>
            ))}
            <option value="__custom">{customLabel}</option>
          </select>
          {custom && (
            <div className="flex gap-2">
              {(["width", "height"] as const).map((side) => (
                <input
                  key={side}
                  type="number"
                  aria-label={`${f.title}: ${tp(side)}`}
                  value={value[side]}
                  onChange={(e) => onChange({ ...value, [side]: e.target.value })}
                  className={input}
                />
              ))}
            </div>
          )}
        </div>
      );
    }
    case "integer":
    case "number":
      return (
        <input
          {...a}
          type="number"
          inputMode={f.kind === "integer" ? "numeric" : "decimal"}
          step={f.kind === "integer" ? 1 : "any"}
          min={f.min}
          max={f.max}
          value={text}
          onChange={(e) => onChange(e.target.value)}
          className={`${input} ${invalid}`}
        />
      );
    case "textarea":
    case "json":
      return (
        <textarea
          {...a}
          rows={f.kind === "json" ? 2 : 3}
          value={text}
          onChange={(e) => onChange(e.target.value)}
          className={`${input} ${invalid} ${f.kind === "json" ? "font-mono" : ""}`}
        />
      );
    default:
      return (
        <input
          {...a}
          type={f.kind === "url" ? "url" : "text"}
          value={text}
          onChange={(e) => onChange(e.target.value)}
          className={`${input} ${invalid}`}
        />
      );
  }
}

/**
 * A form generated from a model's input schema; labels in the schema's (or overlay's) language.
 * A wrong field is marked where it is (`aria-invalid`, its message under it and named by
 * `aria-describedby`), so the form is fixed before anything is sent.
 */
export function SchemaForm({ fields, values, errors, onChange, customLabel, optionLabel }: Props) {
  const requiredMark = useTranslations("playground")("requiredMark");
  return (
    <div className="space-y-4">
      {fields.map((f) => {
        const control = (
          <Control
            field={f}
            value={values[f.name]}
            onChange={(v) => onChange(f.name, v)}
            customLabel={customLabel}
            optionLabel={optionLabel}
            error={errors[f.name]}
          />
        );
        return (
          <div key={f.name} className={f.kind === "boolean" ? "flex items-start gap-3" : ""}>
            {f.kind === "boolean" && control}
            <div className="flex-1">
              <label htmlFor={`field-${f.name}`} className="block text-sm font-medium text-slate-800">
                {f.title}
                {f.required && (
                  <span className="text-red-700" title={requiredMark}>
                    {" "}
                    *
                  </span>
                )}
                <span className="ml-2 font-mono text-xs font-normal text-slate-600" translate="no">
                  {f.name}
                </span>
              </label>
              {f.description && <p className="mb-1 text-xs text-slate-500">{f.description}</p>}
              {f.kind !== "boolean" && control}
              {errors[f.name] && (
                <p id={`field-${f.name}-error`} className="mt-1 text-xs font-medium text-red-700" data-testid="field-error">
                  {errors[f.name]}
                </p>
              )}
            </div>
          </div>
        );
      })}
    </div>
  );
}
