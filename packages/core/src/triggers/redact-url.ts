/**
 * @module triggers/redact-url
 * Webhook URLs as shown to keys that are not administrators: the scheme, host, port and
 * path stay (so staff can tell where events go), credentials and the query string (where
 * receivers' tokens usually are) are replaced by `***`.
 */

/**
 * The URL without its secrets: userinfo becomes `***@`, a query `?***`, a fragment `#***`.
 * Text that does not parse as a URL is hidden whole.
 *
 * @example
 * redactUrl("https://user:pw@hooks.example.org/in?token=abc") // "https://***@hooks.example.org/in?***"
 * redactUrl("https://hooks.example.org/in") // "https://hooks.example.org/in"
 */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "***";
  }
  const userinfo = u.username !== "" || u.password !== "" ? "***@" : "";
  const query = u.search !== "" ? "?***" : "";
  const fragment = u.hash !== "" ? "#***" : "";
  return `${u.protocol}//${userinfo}${u.host}${u.pathname}${query}${fragment}`;
}
