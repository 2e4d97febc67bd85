import { useTranslations } from "next-intl";
import { curlExamples } from "@/lib/catalog/curl-examples";
import { CopyButton } from "./copy-button";

export function CurlExamples({ baseUrl, modelId, input }: { baseUrl: string; modelId: string; input: Record<string, unknown> }) {
  const t = useTranslations("playground");
  const { run, generate } = curlExamples(baseUrl, modelId, input);
  return (
    <div className="space-y-4">
      {[
        [t("curlRun"), run, "curl-run"],
        [t("curlGenerate"), generate, "curl-generate"],
      ].map(([title, code, id]) => (
        <figure key={id} className="overflow-hidden rounded-lg bg-slate-900">
          <figcaption className="flex items-center justify-between border-b border-slate-700 px-4 py-2 text-xs text-slate-300">
            <span>{title}</span>
            <CopyButton text={code!} />
          </figcaption>
          <pre tabIndex={0} className="overflow-x-auto p-4 text-xs leading-relaxed text-slate-100" data-testid={id}>
            {code}
          </pre>
        </figure>
      ))}
    </div>
  );
}
