/**
 * @module shortcuts
 * Keyboard shortcuts of the whole console: "/" focuses the search box of the page (when it
 * has one), unless a field already has the keyboard.
 */
import { useEffect } from "preact/hooks";

/** Installs the shortcuts while the console is shown. */
export function useShortcuts(searchBoxId: string): void {
  useEffect(() => {
    const on = (e: KeyboardEvent) => {
      if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey || _typing(e.target)) return;
      const box = document.getElementById(searchBoxId);
      if (!box) return;
      e.preventDefault();
      box.focus();
    };
    addEventListener("keydown", on);
    return () => removeEventListener("keydown", on);
  }, [searchBoxId]);
}

// --- internal ---

function _typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));
}
