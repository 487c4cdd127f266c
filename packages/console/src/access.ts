/**
 * @module access
 * What the signed-in key may open, asked of the server rather than guessed: the outbox is
 * served to administrator keys only, so its link is shown only when a one-job read of it
 * succeeds (staff keys get 403, and no link to a page that would say "forbidden").
 */
import { useEffect, useState } from "preact/hooks";
import { api, ApiError } from "./api.js";
import { encodePart } from "./text.js";

/** True when the key may read the flock's outbox, false when refused, undefined while asking. */
export function useOutboxAllowed(flock: string | undefined, key: string | null): boolean | undefined {
  const [allowed, setAllowed] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    setAllowed(undefined);
    if (!flock || !key) return;
    let live = true;
    api(`/${encodePart(flock)}/outbox/?status=dead&limit=1`).then(
      () => live && setAllowed(true),
      (e: unknown) => live && setAllowed(!(e instanceof ApiError && (e.status === 403 || e.status === 401))),
    );
    return () => {
      live = false;
    };
  }, [flock, key]);
  return allowed;
}
