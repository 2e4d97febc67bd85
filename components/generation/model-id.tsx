import { Fragment } from "react";

/**
 * A model id that wraps only after its slashes (`fal-ai/` `flux/` `dev`), never inside a segment:
 * each segment is kept whole and a line may break after each slash.
 */
export function ModelId({ id, className = "" }: { id: string; className?: string }) {
  const parts = id.split("/");
  return (
    <span className={`font-mono ${className}`} data-model-id={id} translate="no">
      {parts.map((part, i) => (
        <Fragment key={i}>
          <span className="whitespace-nowrap">
            {part}
            {i < parts.length - 1 ? "/" : ""}
          </span>
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </span>
  );
}
