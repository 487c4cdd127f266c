/**
 * @module views/fields/focus
 * Moves focus to the first field (in page order) that carries an error: its input, or the
 * first control of its row (a reference picker's button, a chip's box).
 */

export function focusFirstInvalid(form: HTMLFormElement | null, fields: readonly string[], errors: Readonly<Record<string, string>>): void {
  const first = fields.find((f) => errors[f]);
  if (!form || first === undefined) return;
  const input = form.querySelector<HTMLElement>(`[id="f-${CSS.escape(first)}"]`);
  const target = input ?? form.querySelector<HTMLElement>(`[id="e-${CSS.escape(first)}"]`)?.closest(".field")?.querySelector<HTMLElement>("input, button, textarea, select") ?? null;
  target?.focus();
  target?.scrollIntoView({ block: "center" });
}
