/**
 * Where a model's example output is (lib/catalog/example-output.ts renders the default): kept
 * apart from the renderer so pages and client components can link to it without sharp.
 */
// The seed catalog's `/thumbnails/*.svg` are placeholders, not examples.
const isPlaceholder = (url: string) => /^(https?:\/\/[^/]+)?\/thumbnails\/[^/]+\.svg$/.test(url);

/** The path of the app's rendered example for a model: `/examples/fal-ai/flux/dev`. */
export const renderedExamplePath = (modelId: string) => `/examples/${modelId.split("/").map(encodeURIComponent).join("/")}`;

/** The image to show for a model: the admin's, else the app's rendered example. */
export function exampleImageUrl(model: { modelId: string; thumbnailUrl: string | null }): string {
  const set = model.thumbnailUrl?.trim();
  const own = renderedExamplePath(model.modelId);
  // The API's thumbnailUrl names the model's own rendered example by its absolute URL; pages link it by path.
  const isOwn = (url: string) => url.replace(/^https?:\/\/[^/]+/, "") === own;
  if (set && !isPlaceholder(set) && !isOwn(set)) return set;
  return own;
}
