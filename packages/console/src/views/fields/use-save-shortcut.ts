/**
 * @module views/fields/use-save-shortcut
 * Ctrl+S (Cmd+S on a Mac) submits the form instead of saving the page, while it is shown.
 */
import type { RefObject } from "preact";
import { useEffect } from "preact/hooks";

export function useSaveShortcut(form: RefObject<HTMLFormElement | null>, enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const on = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s") {
        e.preventDefault();
        form.current?.requestSubmit();
      }
    };
    addEventListener("keydown", on);
    return () => removeEventListener("keydown", on);
  }, [form, enabled]);
}
