import { coverEditBody, coverGenerateBody } from "./schemas";
import { integrationAction, type IntegrationAdapter } from "../integration-action";
import { editCover } from "./edit-cover";
import { generateCover } from "./generate-cover";

/** The album-cover adapter: generate a cover from a release, or write its names on one. */
export function coversAdapter(slug: string): IntegrationAdapter {
  return {
    slug,
    generate: integrationAction(coverGenerateBody, generateCover),
    edit: integrationAction(coverEditBody, editCover),
  };
}
