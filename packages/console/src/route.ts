/**
 * @module route
 * The console's address lives in the URL hash, query included, so any view (a filtered
 * list, page 3 with deleted records) can be bookmarked and shared:
 * `#/{flock}`, `#/{flock}/{type}?last_name__startswithi=lo&page=2`, `#/{flock}/{type}/{id}`,
 * `#/{flock}/{type}/_new` (a new record), `#/{flock}/_dashboard`, `#/{flock}/_triggers`, `#/{flock}/_outbox`, `#/{flock}/_tasks`, `#/{flock}/_indexes`.
 */
import { useEffect, useState } from "preact/hooks";
import { decodeOr, encodePart } from "./text.js";

/** Where the console is. */
export interface Route {
  flock?: string;
  /** A resource type, or a page: `_dashboard`, `_triggers`, `_outbox`, `_tasks`, `_indexes`. */
  section?: string;
  id?: string;
  params: URLSearchParams;
}

/** The route of a hash; a malformed escape in it stays as written. */
export function parseHash(hash: string): Route {
  const [path = "", query = ""] = hash.replace(/^#\/?/, "").split("?");
  const [flock, section, id] = path.split("/").filter(Boolean).map(decodeOr);
  return { ...(flock ? { flock } : {}), ...(section ? { section } : {}), ...(id ? { id } : {}), params: new URLSearchParams(query) };
}

/** The hash of a route. */
export function hrefOf(parts: (string | undefined)[], params?: URLSearchParams): string {
  const path = parts.filter((p): p is string => !!p).map(encodePart).join("/");
  const q = params?.toString();
  return `#/${path}${q ? `?${q}` : ""}`;
}

/** The current route, updated on navigation. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseHash(location.hash));
    addEventListener("hashchange", on);
    return () => removeEventListener("hashchange", on);
  }, []);
  return route;
}

/** Goes to `href` (a hash). */
export function navigate(href: string): void {
  location.hash = href.replace(/^#/, "");
}
