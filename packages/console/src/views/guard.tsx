/**
 * @module views/guard
 * An error boundary: when rendering its children throws, it shows a short alert (or the
 * given fallback) in their place, so one bad value can never blank a page. Each view, each
 * field of the record editor and each row of a list is guarded; the view's guard tries
 * again when the address changes (`resetKey`), without remounting a view that is fine.
 */
import { Component, type ComponentChildren, type VNode } from "preact";

interface GuardProps {
  children: ComponentChildren;
  /** What to show instead; default a paragraph saying this part could not be shown, and why. */
  fallback?: (message: string) => VNode;
  /** When this changes, a guard that caught an error renders its children again. */
  resetKey?: string;
}

export class Guard extends Component<GuardProps, { error?: string }> {
  static override getDerivedStateFromError(error: unknown): { error: string } {
    return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }

  override componentDidUpdate(previous: GuardProps): void {
    if (this.state.error !== undefined && previous.resetKey !== this.props.resetKey) this.setState({ error: undefined });
  }

  override componentDidCatch(error: unknown): void {
    // For whoever debugs it; the page itself goes on.
    console.error(error);
  }

  override render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    return this.props.fallback ? this.props.fallback(error) : <p class="error" role="alert">{couldNotShow(error)}</p>;
  }
}

/** The words of a fallback. */
export function couldNotShow(error: string): string {
  return `This part could not be shown (${error}).`;
}
