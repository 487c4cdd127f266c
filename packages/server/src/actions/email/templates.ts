/**
 * @module actions/email/templates
 * The config file's email templates, compiled once at start. A body is HTML: every
 * `<%= %>` interpolation is HTML-escaped (`<%~ %>` writes raw HTML, for the template's own
 * markup). A subject is a plain-text header: it is not escaped (an `&` in a name must stay
 * an `&`), and line breaks become spaces so a value cannot add a header line.
 */
import { Eta, type TemplateFunction } from "eta";
import { ConfigError } from "../../config/issues.js";
import type { TemplateConfig } from "../../config/schema.js";

/** One compiled template. */
interface CompiledTemplate {
  flock: string;
  name: string;
  /** Renders the subject (plain text, one line). Throws when the template fails at run time. */
  subject(it: object): string;
  /** Renders the body (HTML). Throws when the template fails at run time. */
  body(it: object): string;
}

/** The compiled templates of every flock. */
export interface TemplateSet {
  get(flock: string, name: string): CompiledTemplate | undefined;
}

/**
 * Compiles every template. Throws `ConfigError` naming the first template that does not
 * compile (`templates[i]` and its flock and name).
 *
 * @example
 * const set = compileTemplates([{ flock: "demo", name: "welcome", subject: "Hi <%= it.data.first_name %>", body: "..." }]);
 * set.get("demo", "welcome")?.subject({ data: { first_name: "Ada" } }); // "Hi Ada"
 */
export function compileTemplates(templates: readonly TemplateConfig[]): TemplateSet {
  const html = new Eta({ autoEscape: true });
  const text = new Eta({ autoEscape: false });
  const byKey = new Map<string, CompiledTemplate>();
  templates.forEach((t, i) => {
    const where = `templates[${i}] (flock ${t.flock}, name ${t.name})`;
    const subject = _compile(text, t.subject, `${where}.subject`);
    const body = _compile(html, t.body, `${where}.body`);
    byKey.set(_key(t.flock, t.name), {
      flock: t.flock,
      name: t.name,
      subject: (it) => text.render(subject, it).replace(/[\r\n]+/g, " ").trim(),
      body: (it) => html.render(body, it),
    });
  });
  return { get: (flock, name) => byKey.get(_key(flock, name)) };
}

// --- internal ---

function _key(flock: string, name: string): string {
  return `${flock}\u0000${name}`;
}

function _compile(eta: Eta, source: string, where: string): TemplateFunction {
  try {
    return eta.compile(source);
  } catch (e) {
    const reason = String(e instanceof Error ? e.message : e).split("\n")[0]!.trim();
    throw new ConfigError(`config: "${where}" is not a valid Eta template: ${reason}`);
  }
}
