/**
 * @module derived/png-test-helpers
 * A small PNG reader for tests: splits the chunks, checks their CRCs with zlib's own CRC-32
 * (independent of the encoder's), and inflates the pixels of an 8-bit RGB, non-interlaced image.
 */
import { crc32 as zlibCrc32, inflateSync } from "node:zlib";

export interface DecodedPng {
  chunkTypes: string[];
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  /** Row filter bytes, one per row. */
  filters: number[];
  /** RGB triples as `rrggbb` strings, row by row. */
  pixels: string[];
}

/** Decodes a PNG written by `encodePngRgb`; throws on a bad signature, CRC or size. */
export function decodePng(bytes: Uint8Array): DecodedPng {
  const buf = Buffer.from(bytes);
  if (!buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    throw new Error("not a PNG signature");
  }
  const chunkTypes: string[] = [];
  const idat: Buffer[] = [];
  let ihdr: Buffer | undefined;
  for (let at = 8; at < buf.length; ) {
    const length = buf.readUInt32BE(at);
    const type = buf.toString("latin1", at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + length);
    const crc = buf.readUInt32BE(at + 8 + length);
    if (zlibCrc32(buf.subarray(at + 4, at + 8 + length)) !== crc) throw new Error(`bad CRC in ${type}`);
    chunkTypes.push(type);
    if (type === "IHDR") ihdr = data;
    if (type === "IDAT") idat.push(data);
    at += 12 + length;
  }
  if (!ihdr) throw new Error("no IHDR");
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 3 + 1;
  if (raw.length !== height * stride) throw new Error(`expected ${height * stride} bytes, got ${raw.length}`);
  const filters: number[] = [];
  const pixels: string[] = [];
  for (let y = 0; y < height; y++) {
    filters.push(raw[y * stride]!);
    for (let x = 0; x < width; x++) pixels.push(raw.subarray(y * stride + 1 + x * 3, y * stride + 4 + x * 3).toString("hex"));
  }
  return { chunkTypes, width, height, bitDepth: ihdr[8]!, colourType: ihdr[9]!, filters, pixels };
}
