"use client";

import { useTranslations } from "next-intl";
import type { Field, FormValue } from "./schema-fields";

const input =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500";

type Props = {
  fields: Field[];
  values: Record<string, FormValue>;
  errors: Record<string, string>;
  onChange: (name: string, value: FormValue) => void;
  customLabel: string;
};

function Control({
  field: f,
  value,
  onChange,
  customLabel,
}: {
  field: Field;
  value: FormValue | undefined;
  onChange: (v: FormValue) => void;
  customLabel: string;
}) {
  const id = `field-${f.name}`;
  const text = typeof value === "string" ? value : "";
  switch (f.kind) {
    case "boolean":
      return <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} className="h-4 w-4" />;
    case "select":
      return (
        <select id={id} value={text} onChange={(e) => onChange(e.target.value)} className={input}>
          {!f.required && f.schema.default === undefined && <option value="">—</option>}
          {f.options!.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
    case "size": {
      const custom = typeof value === "object";
      return (
        <div className="space-y-2">
          <select
            id={id}
            value={custom ? "__custom" : text}
            onChange={(e) => onChange(e.target.value === "__custom" ? { width: "1024", height: "1024" } : e.target.value)}
            className={input}
          >
            {f.options!.map((o) => (
              <option key={o} value={o}>
                {o}
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
                  aria-label={`${f.title}: ${side}`}
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
          id={id}
          type="number"
          inputMode={f.kind === "integer" ? "numeric" : "decimal"}
          step={f.kind === "integer" ? 1 : "any"}
          min={f.min}
          max={f.max}
          value={text}
          onChange={(e) => onChange(e.target.value)}
          className={input}
        />
      );
    case "textarea":
    case "json":
      return (
        <textarea
          id={id}
          rows={f.kind === "json" ? 2 : 3}
          value={text}
          onChange={(e) => onChange(e.target.value)}
          className={`${input} ${f.kind === "json" ? "font-mono" : ""}`}
        />
      );
    default:
      return (
        <input id={id} type={f.kind === "url" ? "url" : "text"} value={text} onChange={(e) => onChange(e.target.value)} className={input} />
      );
  }
}

/** A form generated from a model's input schema; labels in the schema's (or overlay's) language. */
export function SchemaForm({ fields, values, errors, onChange, customLabel }: Props) {
  const requiredNote = useTranslations("playground")("requiredNote");
  return (
    <div className="space-y-4">
      {fields.map((f) => (
        <div key={f.name} className={f.kind === "boolean" ? "flex items-start gap-3" : ""}>
          {f.kind === "boolean" && (
            <Control field={f} value={values[f.name]} onChange={(v) => onChange(f.name, v)} customLabel={customLabel} />
          )}
          <div className="flex-1">
            <label htmlFor={`field-${f.name}`} className="block text-sm font-medium text-slate-800">
              {f.title}
              {f.required && <span className="text-red-600"> *</span>}
              <span className="ml-2 font-mono text-xs font-normal text-slate-600">{f.name}</span>
            </label>
            {f.description && <p className="mb-1 text-xs text-slate-500">{f.description}</p>}
            {f.kind !== "boolean" && (
              <Control field={f} value={values[f.name]} onChange={(v) => onChange(f.name, v)} customLabel={customLabel} />
            )}
            {errors[f.name] && (
              // A field not filled in yet is a note, not an error: the price does not depend on it.
              <p
                className={`mt-1 text-xs ${errors[f.name] === "Required" ? "text-slate-600" : "text-red-600"}`}
                role={errors[f.name] === "Required" ? undefined : "alert"}
              >
                {errors[f.name] === "Required" ? requiredNote : errors[f.name]}
              </p>
            )}
          </div>
        </div>
      ))}
    </div>
  );
}
