/**
 * @module views/use-load
 * Loads something for a view and loads it again when its inputs change or when `reload`
 * is called (e.g. a change arrived from the feed); keeps the last good value meanwhile.
 */
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "../api.js";

/** The loaded value, the error (server words), and a reload function. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { value: T | undefined; error: string; reload: () => void } {
  const [value, setValue] = useState<T | undefined>(undefined);
  const [error, setError] = useState("");
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    // Through a promise, so that a load that throws at once shows as its error, too.
    Promise.resolve()
      .then(load)
      .then(
        (v) => {
          if (mine !== seq.current) return;
          setValue(v);
          setError("");
        },
        (e: unknown) => {
          if (mine !== seq.current) return;
          setError(e instanceof ApiError ? `${e.error}: ${e.detail}` : String(e));
        },
      );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { value, error, reload };
}
