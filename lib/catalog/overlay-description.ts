import { sql, type SQL } from "drizzle-orm";
import { models } from "@/db/schema";
import type { RussianOverlay } from "@/db/schema/models";

/**
 * The Russian overlay a schema refresh stores: the fetched one, keeping the description already
 * stored. The description is the admin's (POST /admin/models `descriptionRu`); a refresh brings
 * titles for the form, and must not undo an edit, as it leaves the English description alone.
 */
export function refreshedOverlay(fetched: SQL): SQL {
  return sql`case when ${models.schemaRu} -> 'description' is null then ${fetched}
    else jsonb_set(coalesce(${fetched}, '{"input":{}}'::jsonb), '{description}', ${models.schemaRu} -> 'description') end`;
}

/** The fetched overlay as a jsonb value, for refreshedOverlay. */
export const overlayValue = (overlay: RussianOverlay | null): SQL => sql`${overlay === null ? null : JSON.stringify(overlay)}::jsonb`;

/** The stored overlay with the description an admin sent; null removes it (the English one shows). */
export function overlayWithDescription(description: string | null): SQL {
  return description === null
    ? sql`${models.schemaRu} - 'description'`
    : sql`jsonb_set(coalesce(${models.schemaRu}, '{"input":{}}'::jsonb), '{description}', to_jsonb(${description}::text))`;
}
