import { getLocale } from "next-intl/server";
import { formatFor } from "./format";

/** The request's formatter in a Server Component. */
export async function getFormat() {
  return formatFor(await getLocale());
}
