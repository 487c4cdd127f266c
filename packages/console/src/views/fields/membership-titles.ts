/**
 * @module views/fields/membership-titles
 * Memberships titled by their plan and member wherever they are shown. A list or a lookup
 * gives a membership's member as a bare URI and its display value as "an empty
 * membership", so the names are fetched in batches: the members' names in one look-up
 * (`lookup/person?id__or=…`), and for references to memberships the memberships
 * themselves in one list request. Never one request per row.
 */
import { useEffect, useState } from "preact/hooks";
import { api } from "../../api.js";
import { encodePart, textOf } from "../../text.js";
import { refUri, titleOf } from "./describe.js";

/** The types whose records are memberships (the contract names both). */
export const MEMBERSHIP_TYPES: readonly string[] = ["membership", "member"];

/** A record's id from its URI (`/demo/person/<id>/`), or undefined. */
export function idOfUri(uri: string): string | undefined {
  return /\/([0-9a-f]{24})\/?$/.exec(uri)?.[1];
}

/**
 * The names of the persons `uris` name, by id: one look-up request (at most 100 ids a
 * request, so a page of 100 rows is one request).
 */
async function personNames(flock: string, uris: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(uris.map(idOfUri).filter((id): id is string => !!id))];
  const names = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    const q = new URLSearchParams(chunk.map((id) => ["id__or", id]));
    q.set("limit", String(chunk.length));
    const entries = await api<{ id: unknown; text: unknown }[]>(`/${encodePart(flock)}/lookup/person/?${q}`);
    for (const e of entries) names.set(textOf(e.id), textOf(e.text));
  }
  return names;
}

/** A membership's title with its member's name taken from `names` when the data holds a bare URI. */
export function membershipTitle(type: string, data: Record<string, unknown>, displayValue: string, names: ReadonlyMap<string, string>): string {
  const m = data.member;
  const uri = typeof m === "string" ? m : refUri(m);
  const name = uri ? names.get(idOfUri(uri) ?? "") : undefined;
  return titleOf(type, name ? { ...data, member: { display_value: name, ref: uri } } : data, displayValue);
}

/**
 * The titles of memberships by id (plan and member), for references to them: the
 * memberships in one list request, their members' names in one look-up.
 */
async function membershipTitles(flock: string, type: string, ids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)].slice(0, 100);
  const titles = new Map<string, string>();
  if (!unique.length) return titles;
  const q = new URLSearchParams(unique.map((id) => ["id__or", id]));
  q.set("page_size", String(unique.length));
  const list = await api<{ results: { id: string; display_value: string; data: Record<string, unknown> }[] }>(`/${encodePart(flock)}/${encodePart(type)}/?${q}`);
  const names = await personNames(flock, list.results.map((r) => _memberUri(r.data)).filter((u): u is string => !!u));
  for (const r of list.results) titles.set(r.id, membershipTitle(type, r.data, textOf(r.display_value), names));
  return titles;
}

/**
 * The member names for rows of `type` (empty unless the type is a membership), fetched in
 * one batch whenever the rows change; a failed look-up leaves the titles as the data has them.
 */
export function useMemberNames(flock: string, type: string, rows: readonly { data: Record<string, unknown> }[] | undefined): ReadonlyMap<string, string> {
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  const uris = MEMBERSHIP_TYPES.includes(type) ? (rows ?? []).map((r) => _memberUri(r.data)).filter((u): u is string => !!u) : [];
  const key = [...new Set(uris)].sort().join(" ");
  useEffect(() => {
    if (!key) return;
    let live = true;
    personNames(flock, uris).then(
      (n) => live && setNames(n),
      () => undefined,
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [flock, key]);
  return names;
}

/**
 * Titles for the memberships of `target` with these ids (empty for other targets), fetched
 * in one batch when the ids change: for reference pickers and their search results.
 */
export function useMembershipTitles(flock: string, target: string, ids: readonly (string | undefined)[]): ReadonlyMap<string, string> {
  const [titles, setTitles] = useState<ReadonlyMap<string, string>>(new Map());
  const wanted = MEMBERSHIP_TYPES.includes(target) ? ids.filter((id): id is string => !!id && /^[0-9a-f]{24}$/.test(id)) : [];
  const key = [...new Set(wanted)].sort().join(" ");
  useEffect(() => {
    if (!key) return;
    let live = true;
    membershipTitles(flock, target, key.split(" ")).then(
      (t) => live && setTitles(t),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [flock, target, key]);
  return titles;
}

// --- internal ---

function _memberUri(data: Record<string, unknown>): string | undefined {
  const m = data.member;
  return typeof m === "string" ? m : refUri(m);
}
