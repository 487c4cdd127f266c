/**
 * @module derived/png
 * A minimal PNG encoder for 8-bit RGB images: signature, IHDR, one zlib-deflated IDAT
 * (filter type 0 on every row), IEND, each chunk with its CRC-32. Enough for generated
 * avatars without a native graphics toolkit or a dependency.
 */
import { deflateSync } from "node:zlib";

/** The eight bytes every PNG file starts with. */
export const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/**
 * Encodes `rgb` (width × height × 3 bytes, rows top to bottom) as a PNG file.
 *
 * @example
 * encodePngRgb(1, 1, Uint8Array.of(255, 0, 0)) // a one-pixel red PNG
 */
export function encodePngRgb(width: number, height: number, rgb: Uint8Array): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`PNG size must be positive integers, got ${width}x${height}`);
  }
  if (rgb.length !== width * height * 3) {
    throw new RangeError(`expected ${width * height * 3} RGB bytes for ${width}x${height}, got ${rgb.length}`);
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type 2 (RGB), deflate, filter set 0, no interlace
  return _concat([
    PNG_SIGNATURE,
    _chunk("IHDR", header),
    _chunk("IDAT", deflateSync(_scanlines(width, height, rgb))),
    _chunk("IEND", new Uint8Array(0)),
  ]);
}

/** CRC-32 (ISO 3309, as PNG uses) of `bytes`. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (const b of bytes) c = _CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

// --- internal ---

const _CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** Each row prefixed with filter byte 0 (None): the image is flat colour, deflate does the rest. */
function _scanlines(width: number, height: number, rgb: Uint8Array): Uint8Array {
  const stride = width * 3;
  const out = new Uint8Array(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    out.set(rgb.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  return out;
}

/** length (4) + type (4) + data + CRC of type and data (4). */
function _chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function _concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
