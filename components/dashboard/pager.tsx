import { ButtonLink } from "@/components/ui/button";

/** "Page N of M" with Previous / Next links for a dashboard list; `hrefFor` builds a page's URL. */
export function Pager({ page, pages, hrefFor }: { page: number; pages: number; hrefFor: (page: number) => string }) {
  return (
    <div className="mt-4 flex items-center justify-between text-sm text-slate-600">
      <span>
        Page {page} of {pages}
      </span>
      <div className="flex gap-2">
        {page > 1 && (
          <ButtonLink variant="secondary" href={hrefFor(page - 1)}>
            Previous
          </ButtonLink>
        )}
        {page < pages && (
          <ButtonLink variant="secondary" href={hrefFor(page + 1)}>
            Next
          </ButtonLink>
        )}
      </div>
    </div>
  );
}
