/**
 * The guard's parts without a DOM (its rendering in a page is covered by the browser tests):
 * an error becomes its message, the fallback replaces the children, and a new `resetKey`
 * clears a caught error.
 */
import { h, type VNode } from "preact";
import { describe, expect, it } from "vitest";
import { couldNotShow, Guard } from "./guard.js";

type Props = Guard["props"];

function guard(props: Props, error?: string): Guard & { updates: unknown[] } {
  const g = new Guard(props) as Guard & { updates: unknown[] };
  g.props = props;
  g.state = error === undefined ? {} : { error };
  g.updates = [];
  g.setState = (s: unknown) => void g.updates.push(s);
  return g;
}

describe("Guard", () => {
  it("turns what was thrown into its message", () => {
    expect(Guard.getDerivedStateFromError(new URIError("URI malformed"))).toEqual({ error: "URIError: URI malformed" });
    expect(Guard.getDerivedStateFromError("plain")).toEqual({ error: "plain" });
  });

  it("renders its children until an error, then the default fallback or the given one", () => {
    const child = h("p", null, "fine");
    expect(guard({ children: child }).render()).toBe(child);
    const alert = guard({ children: child }, "URIError: URI malformed").render() as VNode<{ role: string; children: string }>;
    expect(alert.props.role).toBe("alert");
    expect(alert.props.children).toBe(couldNotShow("URIError: URI malformed"));
    expect(couldNotShow("x")).toMatch(/could not be shown/);
    const own = guard({ children: child, fallback: (m) => h("tr", null, m) }, "boom").render() as VNode<{ children: string }>;
    expect(own.type).toBe("tr");
    expect(own.props.children).toBe("boom");
  });

  it("clears a caught error when its resetKey changes, and only then", () => {
    const failed = guard({ children: null, resetKey: "b" }, "boom");
    failed.componentDidUpdate({ children: null, resetKey: "b" });
    expect(failed.updates).toEqual([]);
    failed.componentDidUpdate({ children: null, resetKey: "a" });
    expect(failed.updates).toEqual([{ error: undefined }]);
    const fine = guard({ children: null, resetKey: "b" });
    fine.componentDidUpdate({ children: null, resetKey: "a" });
    expect(fine.updates).toEqual([]);
  });
});
