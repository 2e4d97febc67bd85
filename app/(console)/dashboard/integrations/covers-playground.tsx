"use client";

import { useState } from "react";
import type { COVER_LIMITS } from "@/lib/integrations/covers/schemas";
import { GenerateCoverForm } from "./generate-cover-form";
import { EditCoverForm } from "./edit-cover-form";

export type PlaygroundProps = { slug: string; modelId: string; costLabel: string | null; limits: typeof COVER_LIMITS };

/** Both operations side by side; a generated cover can be carried over into the editor. */
export function CoversPlayground(props: PlaygroundProps) {
  const [lastCover, setLastCover] = useState<string | null>(null);
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <GenerateCoverForm {...props} onGenerated={setLastCover} />
      <EditCoverForm {...props} lastCover={lastCover} />
    </div>
  );
}
