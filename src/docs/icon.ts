/**
 * The bundle's icon, drawn in code so no binary tool or download is needed: a 512x512 PNG
 * (the size Claude Desktop recommends) of a teal tile with three report bars and a flight
 * path. `npm run docs` writes it to icon.png; a test fails when the committed file differs.
 */
import { deflateSync } from 'node:zlib';

const SIZE = 512;
const SAMPLES = 4; // per axis: 16 samples a pixel smooth the edges

type Rgb = readonly [number, number, number];
const TILE: Rgb = [15, 76, 92];
const BAR: Rgb = [255, 255, 255];
const PATH: Rgb = [255, 183, 77];

/** Colour and coverage at one point of the 512-unit canvas, or null outside the tile. */
function paint(x: number, y: number): Rgb | null {
  if (!insideRoundedSquare(x, y, 16, 496, 96)) return null;
  if (nearSegment(x, y, [96, 216], [416, 96], 14) || insideCircle(x, y, 416, 96, 26)) return PATH;
  const bars: [number, number][] = [
    [112, 300],
    [220, 236],
    [328, 172],
  ];
  for (const [left, top] of bars) if (x >= left && x <= left + 72 && y >= top && y <= 416) return BAR;
  return TILE;
}

function insideRoundedSquare(x: number, y: number, lo: number, hi: number, r: number): boolean {
  if (x < lo || x > hi || y < lo || y > hi) return false;
  const cx = Math.min(Math.max(x, lo + r), hi - r);
  const cy = Math.min(Math.max(y, lo + r), hi - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function insideCircle(x: number, y: number, cx: number, cy: number, r: number): boolean {
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function nearSegment(x: number, y: number, a: [number, number], b: [number, number], halfWidth: number): boolean {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const t = Math.max(0, Math.min(1, ((x - a[0]) * dx + (y - a[1]) * dy) / (dx * dx + dy * dy)));
  return (x - a[0] - t * dx) ** 2 + (y - a[1] - t * dy) ** 2 <= halfWidth * halfWidth;
}

/** RGBA rows, each led by PNG filter byte 0, averaged over SAMPLES x SAMPLES points. */
function pixels(): Buffer {
  const row = 1 + SIZE * 4;
  const out = Buffer.alloc(row * SIZE);
  for (let py = 0; py < SIZE; py++) {
    for (let px = 0; px < SIZE; px++) {
      let [r, g, b, covered] = [0, 0, 0, 0];
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const colour = paint(px + (sx + 0.5) / SAMPLES, py + (sy + 0.5) / SAMPLES);
          if (!colour) continue;
          r += colour[0];
          g += colour[1];
          b += colour[2];
          covered++;
        }
      }
      const at = py * row + 1 + px * 4;
      if (covered > 0) {
        out[at] = Math.round(r / covered);
        out[at + 1] = Math.round(g / covered);
        out[at + 2] = Math.round(b / covered);
        out[at + 3] = Math.round((255 * covered) / (SAMPLES * SAMPLES));
      }
    }
  }
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** The icon as PNG bytes (8-bit RGBA). */
export function drawIcon(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels(), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
