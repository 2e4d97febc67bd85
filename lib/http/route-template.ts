import { parseModelPath, parseQueuePath } from "./model-path";

export type RouteParams = Record<string, string | string[] | undefined>;

/** What a request's route is called when its path cannot be matched to its params. */
export const UNMATCHED_ROUTE = "unmatched";

/**
 * The route a request matched, as a template (`/me/keys/{id}`, `/run/{modelId}`), for metric
 * labels and request logs: bounded by the app's routes, never a raw path. A route handler is not
 * told its file's path, so the template is rebuilt from the path and the params Next.js decoded
 * from it: a catch-all is always a route's last segment, so its values are the path's last ones;
 * a single param is the rightmost remaining segment equal to its value (dynamic segments sit
 * near the end). Every segment left is then one of the route's own literals. A path that does
 * not fit its params gives `unmatched`.
 */
export function routeTemplate(pathname: string, params: RouteParams | undefined): string {
  let names: string[] | undefined;
  for (const name in params) (names ??= []).push(name);
  if (!names) return pathname;
  const segments = pathname.split("/");
  // Segments at or past `end` belong to the catch-all (Next.js allows one, as the last segment).
  let end = segments.length;
  let catchAll: { name: string; value: string[] } | undefined;
  for (const name of names) {
    const value = params![name];
    if (!Array.isArray(value)) continue;
    end -= value.length;
    if (end < 1) return UNMATCHED_ROUTE;
    for (let i = 0; i < value.length; i++) if (decoded(segments[end + i]!) !== value[i]) return UNMATCHED_ROUTE;
    catchAll = { name, value };
  }
  // Params come in the route's order: the last one is matched first, from the right, and each
  // one before it further left.
  let limit = end;
  for (let n = names.length - 1; n >= 0; n--) {
    const name = names[n]!;
    const value = params![name];
    if (typeof value !== "string") continue;
    let i = limit - 1;
    while (i > 0 && decoded(segments[i]!) !== value) i--;
    if (i === 0) return UNMATCHED_ROUTE;
    segments[i] = `{${name}}`;
    limit = i;
  }
  if (!catchAll) return segments.join("/");
  segments.length = end;
  segments.push(`{${catchAll.name}}`);
  return refine(segments.join("/"), catchAll.name, catchAll.value);
}

function decoded(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The catch-alls that carry a model id (`/run/[...path]`, `/queue/[...path]`, …) are named by
 * what their handlers parse out of them, so `/queue/{modelId}/requests/{requestId}/status` and
 * `/queue/{modelId}` stay apart.
 */
function refine(template: string, name: string, value: string[]): string {
  if (name !== "path") return template;
  const prefix = template.slice(0, -"/{path}".length);
  try {
    switch (prefix) {
      case "/run":
        return "/run/{modelId}";
      case "/models":
        return parseModelPath(value).kind === "estimate" ? "/models/{modelId}/estimate" : "/models/{modelId}";
      case "/api/v1/models":
        return parseModelPath(value, ["schema"]).kind === "schema" ? "/api/v1/models/{modelId}/schema" : "/api/v1/models/{modelId}";
      case "/queue":
        return QUEUE_TEMPLATES[parseQueuePath(value).kind];
      default:
        return template;
    }
  } catch {
    return template;
  }
}

const QUEUE_TEMPLATES = {
  submit: "/queue/{modelId}",
  result: "/queue/{modelId}/requests/{requestId}",
  status: "/queue/{modelId}/requests/{requestId}/status",
  "status-stream": "/queue/{modelId}/requests/{requestId}/status/stream",
  "progress-stream": "/queue/{modelId}/requests/{requestId}/progress/stream",
  cancel: "/queue/{modelId}/requests/{requestId}/cancel",
} as const;
