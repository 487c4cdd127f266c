import { describe, expect, it } from "vitest";
import { multipartBoundary, parseMultipart, type MultipartPart } from "./multipart.js";

/** The bytes and boundary the platform's own encoder makes of `form`. */
async function encode(form: FormData): Promise<{ bytes: Uint8Array; boundary: string }> {
  const req = new Request("http://x/", { method: "POST", body: form });
  return { bytes: new Uint8Array(await req.arrayBuffer()), boundary: multipartBoundary(req.headers.get("content-type")!) };
}

const text = (p: MultipartPart) => new TextDecoder().decode(p.body);
const raw = (s: string) => new TextEncoder().encode(s);

describe("parseMultipart", () => {
  it("reads what the platform encodes: text fields, files, names and bytes as sent", async () => {
    const form = new FormData();
    form.append("title", "Minutes\r\n--not a boundary");
    form.append("files", new File(["a\r\nb"], 'Réunion "finale"\n.txt', { type: "text/plain" }));
    form.append("files", new File([new Uint8Array([0, 13, 10, 45, 45, 255])], "bytes.bin", { type: "" }));
    form.append('名前 "x"', "値");
    const { bytes, boundary } = await encode(form);
    const parts = parseMultipart(bytes, boundary, 100);
    expect(parts.map((p) => [p.name, p.filename, p.contentType])).toEqual([
      ["title", undefined, ""],
      ["files", 'Réunion "finale"\n.txt', "text/plain"],
      ["files", "bytes.bin", "application/octet-stream"],
      ['名前 "x"', undefined, ""],
    ]);
    expect(text(parts[0]!)).toBe("Minutes\r\n--not a boundary");
    expect(text(parts[1]!)).toBe("a\r\nb");
    expect(Array.from(parts[2]!.body)).toEqual([0, 13, 10, 45, 45, 255]);
    expect(text(parts[3]!)).toBe("値");
  });

  it("reads a hand-written body: preamble, padding, quoted and RFC 5987 names, any header case", () => {
    const body = raw(
      "preamble\r\n--b  \r\ncontent-disposition: form-data; name=\"a\\\"b\"; filename*=UTF-8''caf%C3%A9.txt; filename=\"cafe.txt\"\r\n" +
        "CONTENT-TYPE: image/png\r\n\r\nPNG\r\n--b\r\nContent-Disposition: form-data; name=plain\r\n\r\n\r\n" +
        '--b\r\nContent-Disposition: form-data; name="f"; filename=""\r\n\r\nx\r\n--b--\r\nepilogue',
    );
    const parts = parseMultipart(body, "b", 100);
    expect(parts.map((p) => [p.name, p.filename, p.contentType, text(p)])).toEqual([
      ['a"b', "café.txt", "image/png", "PNG"],
      ["plain", undefined, "", ""],
      ["f", "", "", "x"],
    ]);
  });

  it("answers for an empty form: no part", () => {
    expect(parseMultipart(raw("--b--\r\n"), "b", 100)).toEqual([]);
  });

  it("stops at maxParts + 1, before reading the rest", async () => {
    const form = new FormData();
    for (let i = 0; i < 101; i++) form.append("files", new File(["x"], "x.txt"));
    const { bytes, boundary } = await encode(form);
    expect(() => parseMultipart(bytes, boundary, 100)).toThrow(expect.objectContaining({ message: "too many parts" }));
    expect(parseMultipart(bytes, boundary, 101)).toHaveLength(101);
  });

  it.each([
    ["no boundary given", "--b\r\n", ""],
    ["no delimiter", "hello", "b"],
    ["another boundary", "--c\r\nContent-Disposition: form-data; name=a\r\n\r\nx\r\n--c--", "b"],
    ["no line break after a delimiter", "--bxyz", "b"],
    ["headers that never end", "--b\r\nContent-Disposition: form-data; name=a\r\n", "b"],
    ["no closing delimiter", "--b\r\nContent-Disposition: form-data; name=a\r\n\r\nx", "b"],
    ["no Content-Disposition", "--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--", "b"],
    ["a disposition without a name", "--b\r\nContent-Disposition: form-data; filename=x\r\n\r\nx\r\n--b--", "b"],
    ["a disposition other than form-data", "--b\r\nContent-Disposition: attachment; name=a\r\n\r\nx\r\n--b--", "b"],
  ])("refuses %s with 400 invalid form body", (_name, body, boundary) => {
    expect(() => parseMultipart(raw(body), boundary, 100)).toThrow(expect.objectContaining({ code: "bad_request", message: "invalid form body" }));
  });

  it("is linear: a 10 MiB file and a 10 MiB body of tiny parts are read at once", () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 200);
    const head = raw('--b\r\nContent-Disposition: form-data; name="f"; filename="big"\r\n\r\n');
    big.set(head);
    big.set(raw("\r\n--b--\r\n"), big.length - 9);
    const parts = parseMultipart(big, "b", 100);
    expect(parts[0]!.body.byteLength).toBe(big.length - 9 - head.length);
    expect(parts[0]!.body.buffer).toBe(big.buffer); // a view, not a copy
    const tiny = raw('--b\r\nContent-Disposition: form-data; name="f"; filename="x"\r\n\r\nx\r\n'.repeat(150_000) + "--b--");
    expect(() => parseMultipart(tiny, "b", 100)).toThrow(expect.objectContaining({ message: "too many parts" }));
  });
});

describe("multipartBoundary", () => {
  it.each([
    ["multipart/form-data; boundary=abc", "abc"],
    ['multipart/form-data; boundary="a b;c"', "a b;c"],
    ["multipart/form-data; charset=utf-8; BOUNDARY=xyz ", "xyz"],
    ["multipart/form-data", ""],
  ])("%s -> %s", (type, boundary) => {
    expect(multipartBoundary(type)).toBe(boundary);
  });
});
