import { describe, expect, it } from "vitest";
import { addressRange, isLoopbackName, isRestrictedAddress, restrictedHostProblem, targetHost, type AddressRange } from "./target-address.js";

describe("addressRange", () => {
  it.each<[string, AddressRange | undefined]>([
    // IPv4
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["100.63.255.255", "public"],
    ["100.64.0.1", "shared"],
    ["100.127.255.255", "shared"],
    ["100.128.0.0", "public"],
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["169.254.169.254", "link-local"],
    ["169.255.0.1", "public"],
    ["172.15.255.255", "public"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.0", "public"],
    ["192.0.0.8", "reserved"],
    ["192.168.1.10", "private"],
    ["192.169.0.1", "public"],
    ["198.18.0.1", "reserved"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "reserved"],
    ["8.8.8.8", "public"],
    ["93.184.215.14", "public"],
    // IPv6
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["[::ffff:a9fe:a9fe]", "link-local"],
    ["::ffff:10.1.2.3", "private"],
    ["::ffff:0.0.0.0", "unspecified"],
    ["::ffff:8.8.8.8", "public"],
    ["::ffff:0:192.168.0.1", "private"],
    ["64:ff9b::127.0.0.1", "loopback"],
    ["64:ff9b::808:808", "public"],
    ["::127.0.0.1", "reserved"],
    ["2002:7f00:1::", "loopback"],
    ["2002:0808:0808::1", "public"],
    ["fc00::1", "unique-local"],
    ["fd12:3456:789a::1", "unique-local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    ["fec0::1", "private"],
    ["ff02::1", "multicast"],
    ["100::1", "reserved"],
    ["2001:4860:4860::8888", "public"],
    ["2606:4700:4700::1111", "public"],
    ["FE80::ABCD", "link-local"],
    // Not IP addresses
    ["example.org", undefined],
    ["localhost", undefined],
    ["127.0.0.256", undefined],
    ["127.1", undefined],
    ["1.2.3.4.5", undefined],
    ["::1::2", undefined],
    ["1:2:3:4:5:6:7:8:9", undefined],
    ["12345::1", undefined],
    ["::ffff:1.2.3", undefined],
    ["", undefined],
  ])("%s → %s", (text, expected) => {
    expect(addressRange(text)).toBe(expected);
    expect(isRestrictedAddress(text)).toBe(expected !== undefined && expected !== "public");
  });
});

describe("restrictedHostProblem", () => {
  it.each([
    ["https://10.0.0.5/hook", "10.0.0.5, a private address"],
    ["https://[::1]:8443/hook", "[::1], a loopback address"],
    ["https://[::ffff:169.254.169.254]/latest", "[::ffff:a9fe:a9fe], a link-local address"],
    ["http://0x7f.1/hook", "127.0.0.1, a loopback address"],
    ["http://2130706433/hook", "127.0.0.1, a loopback address"],
    ["https://0.0.0.0/", "0.0.0.0, an unspecified address"],
    ["https://[fd00::5]/", "[fd00::5], a unique-local address"],
    ["https://localhost:8443/hook", "localhost, a loopback name"],
    ["https://api.localhost/hook", "api.localhost, a loopback name"],
    // Issue 20, point 5: a fully qualified (trailing-dot) host is judged like the name without the dots.
    ["https://localhost./", "localhost, a loopback name"],
    ["https://LOCALHOST.:8443/hook", "localhost, a loopback name"],
    ["https://api.localhost./hook", "api.localhost, a loopback name"],
    ["https://localhost../", "localhost, a loopback name"],
    ["https://10.0.0.1./", "10.0.0.1, a private address"],
    ["https://10.0.0.1../", "10.0.0.1, a private address"],
    ["https://127.0.0.1./hook", "127.0.0.1, a loopback address"],
    ["https://169.254.169.254./latest", "169.254.169.254, a link-local address"],
    ["http://0x7f.1./hook", "127.0.0.1, a loopback address"],
    // Two dots leave the URL parser a name, so the IPv4 shorthands it would read without them are read after stripping.
    ["http://127.1../hook", "127.0.0.1, a loopback address"],
    ["http://2130706433../", "127.0.0.1, a loopback address"],
    ["http://0x7f.0.0.1../", "127.0.0.1, a loopback address"],
    ["http://0xa9fea9fe../latest", "169.254.169.254, a link-local address"],
  ])("refuses %s, naming %s and the rule", (url, what) => {
    expect(restrictedHostProblem(url)).toBe(
      `url ${JSON.stringify(url)} points at ${what}; webhook targets in private, loopback and link-local ranges are refused unless webhooks.allowPrivateTargets (or allowInsecureUrls) is set`,
    );
  });

  it.each(["https://hooks.example.org/in", "https://8.8.8.8/", "https://[2001:4860:4860::8888]/", "not a url", "https://localhost.example.org/", "https://hooks.example.org./in", "https://8.8.8.8./", "https://localhost.example.org./"])(
    "accepts %s (names are judged on what they resolve to, at delivery)",
    (url) => {
      expect(restrictedHostProblem(url)).toBeNull();
    },
  );
});

describe("targetHost and isLoopbackName", () => {
  it.each([
    { input: "localhost.", host: "localhost", loopback: true },
    { input: "LocalHost..", host: "localhost", loopback: true },
    { input: "a.b.localhost.", host: "a.b.localhost", loopback: true },
    { input: "localhost", host: "localhost", loopback: true },
    { input: "10.0.0.1.", host: "10.0.0.1", loopback: false },
    { input: "localhost.example.org.", host: "localhost.example.org", loopback: false },
    { input: "notlocalhost.", host: "notlocalhost", loopback: false },
    { input: "....", host: "", loopback: false },
    { input: "127.1..", host: "127.0.0.1", loopback: false },
    { input: "2130706433..", host: "127.0.0.1", loopback: false },
  ])("$input is judged as $host (loopback name: $loopback)", ({ input, host, loopback }) => {
    expect(targetHost(input)).toBe(host);
    expect(isLoopbackName(input)).toBe(loopback);
  });

  it("strips a long run of dots in linear time (no backtracking pattern)", () => {
    const dots = ".".repeat(200_000);
    expect(targetHost(`a${dots}`)).toBe("a");
    expect(targetHost(`${dots}a`)).toBe(`${dots}a`);
  });
});
