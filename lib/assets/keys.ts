/**
 * Object keys are `<u|r>/<first two characters of the id>/<asset id>.<ext>`: uploads under `u/`,
 * re-hosted results under `r/`. The id is a random UUID, so a key (and the URL made from it)
 * cannot be guessed; the two-character level keeps local directories small; the extension gives
 * the local driver its Content-Type.
 */
export function assetKey(kind: "upload" | "result", id: string, ext?: string): string {
  const stem = `${kind === "upload" ? "u" : "r"}/${id.slice(0, 2)}/${id}`;
  return ext ? `${stem}.${ext}` : stem;
}
