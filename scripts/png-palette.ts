/**
 * Makes a screenshot small enough to keep in the repository: reads the 8-bit RGB or RGBA PNG a
 * browser writes, keeps its most used colours (flat pages have few, plus the shades that smooth
 * the edges of text), and writes it again as an indexed PNG, each pixel its nearest kept colour.
 */
import { crc32, deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Image {
  width: number;
  height: number;
  /** RGB, three bytes a pixel. */
  rgb: Uint8Array;
}

/** Reads an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium writes). */
export function readPng(png: Buffer): Image {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, color, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || interlace !== 0 || (color !== 2 && color !== 6))
        throw new Error(`a PNG of depth ${depth}, colour type ${color}, interlace ${interlace} is not read here`);
      channels = color === 6 ? 4 : 3;
    } else if (type === 'IDAT') data.push(body);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const rows = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = rows.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? rows.subarray((y - 1) * stride, y * stride) : null;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[x - channels]! : 0;
      const b = up ? up[x]! : 0;
      const c = up && x >= channels ? up[x - channels]! : 0;
      let v = line[x]!;
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[x] = v & 0xff;
    }
  }
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0, j = 0; i < rows.length; i += channels, j += 3) {
    rgb[j] = rows[i]!;
    rgb[j + 1] = rows[i + 1]!;
    rgb[j + 2] = rows[i + 2]!;
  }
  return { width, height, rgb };
}

/** The image with at most `colours` colours, as an indexed PNG. */
export function indexedPng(image: Image, colours = 96): Buffer {
  const { width, height, rgb } = image;
  // Count the colours in buckets of 5 bits a channel; keep the most used buckets' mean colours.
  const key = (i: number) => ((rgb[i]! >> 3) << 10) | ((rgb[i + 1]! >> 3) << 5) | (rgb[i + 2]! >> 3);
  const count = new Uint32Array(1 << 15);
  const sum = new Float64Array((1 << 15) * 3);
  for (let i = 0; i < rgb.length; i += 3) {
    const k = key(i);
    count[k]!++;
    sum[k * 3] += rgb[i]!;
    sum[k * 3 + 1] += rgb[i + 1]!;
    sum[k * 3 + 2] += rgb[i + 2]!;
  }
  const used = [...count.keys()].filter((k) => count[k]! > 0).sort((a, b) => count[b]! - count[a]!);
  const palette = used
    .slice(0, colours)
    .map((k) => [sum[k * 3]! / count[k]!, sum[k * 3 + 1]! / count[k]!, sum[k * 3 + 2]! / count[k]!].map(Math.round) as [number, number, number]);
  const nearest = new Int16Array(1 << 15).fill(-1);
  const pick = (k: number) => {
    if (nearest[k]! >= 0) return nearest[k]!;
    const r = ((k >> 10) << 3) + 4;
    const g = (((k >> 5) & 31) << 3) + 4;
    const b = ((k & 31) << 3) + 4;
    let best = 0;
    let bestDistance = Infinity;
    palette.forEach(([pr, pg, pb], i) => {
      const d = 2 * (pr - r) ** 2 + 4 * (pg - g) ** 2 + 3 * (pb - b) ** 2;
      if (d < bestDistance) {
        bestDistance = d;
        best = i;
      }
    });
    nearest[k] = best;
    return best;
  };
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0;
    for (let x = 0; x < width; x++) raw[y * (width + 1) + 1 + x] = pick(key((y * width + x) * 3));
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 3, 0, 0, 0], 8);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('PLTE', Buffer.from(palette.flat())),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])) >>> 0, 0);
  return Buffer.concat([head, body, crc]);
}
