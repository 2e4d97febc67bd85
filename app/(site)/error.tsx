"use client";

import { PageError } from "@/components/ui/page-states";

// A failed render of a page in this segment: a message and a retry instead of a blank page.
export default function Error({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <PageError error={error} reset={reset} />;
}
