import { describe, expect, it } from "vitest";
import { PNG_SIGNATURE, crc32, encodePngRgb } from "./png.js";
import { decodePng } from "./png-test-helpers.js";

describe("crc32", () => {
  it.each([
    { input: "", expected: 0 },
    { input: "123456789", expected: 0xcbf43926 },
    { input: "IEND", expected: 0xae426082 },
  ])("crc32($input) = $expected", ({ input, expected }) => {
    expect(crc32(new TextEncoder().encode(input))).toBe(expected);
  });
});

describe("encodePngRgb", () => {
  it("writes signature, IHDR, IDAT, IEND with valid CRCs and the pixels given", () => {
    const rgb = Uint8Array.of(255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 1, 2, 3, 4, 5, 6);
    const png = encodePngRgb(3, 2, rgb);
    expect([...png.subarray(0, 8)]).toEqual([...PNG_SIGNATURE]);
    const decoded = decodePng(png);
    expect(decoded).toMatchObject({ chunkTypes: ["IHDR", "IDAT", "IEND"], width: 3, height: 2, bitDepth: 8, colourType: 2 });
    expect(decoded.filters).toEqual([0, 0]);
    expect(decoded.pixels).toEqual(["ff0000", "00ff00", "0000ff", "ffffff", "010203", "040506"]);
  });

  it.each([
    { name: "zero width", w: 0, h: 1, bytes: 0 },
    { name: "fractional height", w: 1, h: 1.5, bytes: 3 },
    { name: "too few bytes", w: 2, h: 2, bytes: 11 },
    { name: "too many bytes", w: 1, h: 1, bytes: 4 },
  ])("refuses $name", ({ w, h, bytes }) => {
    expect(() => encodePngRgb(w, h, new Uint8Array(bytes))).toThrow(RangeError);
  });
});
