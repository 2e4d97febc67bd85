/**
 * Where a model's example output is (lib/catalog/example-output.ts renders the default): kept
 * apart from the renderer so pages and client components can link to it without sharp.
 */
// The seed catalog's `/thumbnails/*.svg` are placeholders, not examples.
const isPlaceholder = (url: string) => /^(https?:\/\/[^/]+)?\/thumbnails\/[^/]+\.svg$/.test(url);
// The API's thumbnailUrl names the rendered example by its absolute URL; pages link it by path.
const isRendered = (url: string) => /^(https?:\/\/[^/]+)?\/examples\//.test(url);

/** The path of the app's rendered example for a model: `/examples/fal-ai/flux/dev`. */
export const renderedExamplePath = (modelId: string) => `/examples/${modelId.split("/").map(encodeURIComponent).join("/")}`;

/** The image to show for a model: the admin's, else the app's rendered example. */
export function exampleImageUrl(model: { modelId: string; thumbnailUrl: string | null }): string {
  const set = model.thumbnailUrl?.trim();
  if (set && !isPlaceholder(set) && !isRendered(set)) return set;
  return renderedExamplePath(model.modelId);
}

