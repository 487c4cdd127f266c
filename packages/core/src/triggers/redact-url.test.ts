import { describe, expect, it } from "vitest";
import { redactUrl } from "./redact-url.js";

describe("redactUrl", () => {
  it.each([
    ["https://hooks.example.org/in", "https://hooks.example.org/in"],
    ["https://hooks.example.org:8443/a/b/", "https://hooks.example.org:8443/a/b/"],
    ["https://user:pw@hooks.example.org/in", "https://***@hooks.example.org/in"],
    ["https://user@hooks.example.org/in", "https://***@hooks.example.org/in"],
    ["https://:pw@hooks.example.org/in", "https://***@hooks.example.org/in"],
    ["https://hooks.example.org/in?token=abc&x=1", "https://hooks.example.org/in?***"],
    ["https://hooks.example.org/in?", "https://hooks.example.org/in"],
    ["https://u:p@hooks.example.org/in?token=abc#frag", "https://***@hooks.example.org/in?***#***"],
    ["http://[::1]:9/h?k=v", "http://[::1]:9/h?***"],
    ["not a url with a secret", "***"],
  ])("%s → %s", (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
