/**
 * @module triggers/target-address
 * Which addresses a webhook may be delivered to. Addresses in loopback, private,
 * link-local, shared (CGNAT), unique-local, unspecified, multicast and reserved ranges,
 * in IPv4 and IPv6 (IPv4-mapped, IPv4-translated, NAT64 and 6to4 forms are judged by the
 * IPv4 address they carry), are restricted: a webhook goes there only when the operator
 * allows private targets. Pure text parsing, no DNS: the server checks every address a
 * name resolves to, at connect time, with `addressRange`.
 */

/** The range an address falls in; everything but `public` is restricted. */
export type AddressRange =
  | "public"
  | "unspecified"
  | "loopback"
  | "private"
  | "link-local"
  | "shared"
  | "unique-local"
  | "multicast"
  | "reserved";

/**
 * The range of an IP address (IPv4 dotted quad, or IPv6 with or without brackets and zone),
 * or undefined when `text` is not an IP address.
 *
 * @example
 * addressRange("10.1.2.3") // "private"
 * addressRange("[::ffff:127.0.0.1]") // "loopback"
 * addressRange("example.org") // undefined
 */
export function addressRange(text: string): AddressRange | undefined {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const v4 = _parseIpv4(bare);
  if (v4 !== undefined) return _ipv4Range(v4);
  const v6 = _parseIpv6(bare);
  return v6 === undefined ? undefined : _ipv6Range(v6);
}

/**
 * True when `text` is an IP address outside the public ranges.
 *
 * @example
 * isRestrictedAddress("169.254.169.254") // true
 * isRestrictedAddress("93.184.215.14") // false
 */
export function isRestrictedAddress(text: string): boolean {
  const range = addressRange(text);
  return range !== undefined && range !== "public";
}

/**
 * Why a webhook URL's host is refused without `allowPrivateTargets`, or null: a literal
 * restricted address, or a `localhost` name (which always means loopback), each also with
 * trailing dots (`targetHost`). Hosts that are other names are judged at connect time, on
 * what they resolve to.
 *
 * @example
 * restrictedHostProblem("https://10.0.0.5/hook") // "url \"https://10.0.0.5/hook\" points at 10.0.0.5, a private address; ..."
 */
export function restrictedHostProblem(url: string): string | null {
  let host: string;
  try {
    host = targetHost(new URL(url).hostname);
  } catch {
    return null;
  }
  const range = addressRange(host);
  const what =
    range !== undefined && range !== "public"
      ? `${host}, ${_article(range)} ${range} address`
      : isLoopbackName(host)
        ? `${host}, a loopback name`
        : undefined;
  return what === undefined ? null : `url ${JSON.stringify(url)} points at ${what}; ${PRIVATE_TARGETS_RULE}`;
}

/**
 * A URL's host as it is judged: lower-cased, without the trailing dots of a fully
 * qualified name, so `localhost.` is `localhost` and `10.0.0.1..` is `10.0.0.1` (the URL
 * parser already drops one dot after an IPv4 address, not after a name or a second dot),
 * and `127.1..` is `127.0.0.1`, as the parser reads `127.1`.
 *
 * @example
 * targetHost("LocalHost.") // "localhost"
 */
export function targetHost(hostname: string): string {
  // A loop, not /\.+$/: that pattern backtracks quadratically over a long run of dots.
  let end = hostname.length;
  while (end > 0 && hostname.charCodeAt(end - 1) === 0x2e) end--;
  const host = hostname.slice(0, end).toLowerCase();
  if (end === hostname.length || host === "") return host;
  // Without its dots the host may be an IPv4 shorthand the URL parser reads as an address
  // (`127.1..` is a name to it, `127.1` is 127.0.0.1): read it again as the parser would.
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return host;
  }
}

/**
 * True for `localhost` and `*.localhost`, with or without trailing dots: names that always
 * mean the loopback interface (RFC 6761), whatever a resolver answers for them.
 *
 * @example
 * isLoopbackName("api.localhost.") // true
 */
export function isLoopbackName(hostname: string): boolean {
  const host = targetHost(hostname);
  return host === "localhost" || host.endsWith(".localhost");
}

/** The rule, as every refusal states it. */
export const PRIVATE_TARGETS_RULE =
  "webhook targets in private, loopback and link-local ranges are refused unless webhooks.allowPrivateTargets (or allowInsecureUrls) is set";

// --- internal ---

/** IPv4 ranges, most specific first does not matter: they do not overlap. */
const _IPV4_RANGES: readonly [base: string, bits: number, range: AddressRange][] = [
  ["0.0.0.0", 8, "unspecified"], // "this network"; 0.0.0.0 reaches the host itself
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared"], // carrier-grade NAT (RFC 6598), never the public internet
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"], // includes cloud metadata at 169.254.169.254
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"], // IETF protocol assignments
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"], // benchmarking
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"], // includes 255.255.255.255
];

const _IPV4_TABLE = _IPV4_RANGES.map(([base, bits, range]) => ({ base: _parseIpv4(base)!, bits, range }));

function _ipv4Range(n: number): AddressRange {
  for (const { base, bits, range } of _IPV4_TABLE) {
    if (Math.floor(n / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits))) return range;
  }
  return "public";
}

/** Eight 16-bit groups. */
function _ipv6Range(g: number[]): AddressRange {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const embedded = () => g[6]! * 0x10000 + g[7]!;
  if (zeros(0, 8)) return "unspecified";
  if (zeros(0, 7) && g[7] === 1) return "loopback";
  if (zeros(0, 5) && g[5] === 0xffff) return _ipv4Range(embedded()); // ::ffff:a.b.c.d (mapped)
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return _ipv4Range(embedded()); // ::ffff:0:a.b.c.d (translated)
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return _ipv4Range(embedded()); // NAT64 64:ff9b::/96
  if (zeros(0, 6)) return "reserved"; // ::a.b.c.d (IPv4-compatible, deprecated)
  if (g[0] === 0x2002) return _ipv4Range(g[1]! * 0x10000 + g[2]!); // 6to4 2002:AABB:CCDD::/48
  if (g[0] === 0x100 && zeros(1, 4)) return "reserved"; // discard-only 100::/64
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return "unique-local"; // fc00::/7
  if ((first & 0xffc0) === 0xfe80) return "link-local"; // fe80::/10
  if ((first & 0xffc0) === 0xfec0) return "private"; // fec0::/10 (site-local, deprecated)
  if ((first & 0xff00) === 0xff00) return "multicast"; // ff00::/8
  return "public";
}

/** A dotted quad of decimal numbers 0 to 255 (no other IPv4 spelling) as a 32-bit number. */
function _parseIpv4(text: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return ((parts[0]! * 256 + parts[1]!) * 256 + parts[2]!) * 256 + parts[3]!;
}

/** Eight 16-bit groups of an IPv6 address (`::` compression, a dotted-quad tail and a `%zone` allowed). */
function _parseIpv6(text: string): number[] | undefined {
  let addr = text.replace(/%.*$/, "").toLowerCase();
  if (!addr.includes(":") || !/^[0-9a-f:.]+$/.test(addr)) return undefined;
  let tail: number[] = [];
  const lastColon = addr.lastIndexOf(":");
  const last = addr.slice(lastColon + 1);
  if (last.includes(".")) {
    const v4 = _parseIpv4(last);
    if (v4 === undefined) return undefined;
    tail = [Math.floor(v4 / 0x10000), v4 % 0x10000];
    // Keep a trailing "::" ("::1.2.3.4"); drop a single trailing ":" ("::ffff:1.2.3.4").
    addr = addr.slice(0, lastColon + 1);
    if (!addr.endsWith("::")) addr = addr.slice(0, -1);
  }
  const halves = addr.split("::");
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const left = groups(halves[0]!);
  const right = halves.length === 2 ? groups(halves[1]!) : [];
  if ([...left, ...right].some((x) => !/^[0-9a-f]{1,4}$/.test(x))) return undefined;
  const given = left.length + right.length + tail.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return undefined;
  const fill = halves.length === 2 ? new Array<number>(8 - given).fill(0) : [];
  const hex = (xs: string[]) => xs.map((x) => parseInt(x, 16));
  return [...hex(left), ...fill, ...hex(right), ...tail];
}

function _article(range: AddressRange): string {
  return range === "unspecified" ? "an" : "a";
}
