// Draws the PWA icons (web/public/icons/*.png): a white Star of Life (three crossed bars) on the theme colour. Run once with `npx tsx web/scripts/generate-pwa-icons.ts`
// after changing the design; the PNGs are committed. No image library: pixels are
// computed with 4x4 supersampling and written as an RGBA PNG through zlib.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

/** Keep in sync with `themeColor` in web/vite.config.ts (PWA section). */
const THEME_RGB: readonly [number, number, number] = [0xb9, 0x1c, 0x1c];
const WHITE: readonly [number, number, number] = [0xff, 0xff, 0xff];

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  typeAndData.copy(out, 4);
  out.writeUInt32BE(crc32(typeAndData), 8 + data.length);
  return out;
}

function encodePng(size: number, rgba: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  // compression, filter and interlace stay 0
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    Buffer.from(rgba.buffer, rgba.byteOffset + y * size * 4, size * 4).copy(
      raw,
      y * (size * 4 + 1) + 1,
    );
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** Whether (x, y) lies in a square-ended bar through the centre at `angle`. */
function inBar(
  x: number,
  y: number,
  angle: number,
  halfLength: number,
  halfWidth: number,
): boolean {
  const along = x * Math.cos(angle) + y * Math.sin(angle);
  const across = -x * Math.sin(angle) + y * Math.cos(angle);
  return Math.abs(along) <= halfLength && Math.abs(across) <= halfWidth;
}

interface IconDesign {
  /** Star radius as a fraction of the icon size. */
  starRadius: number;
  /** Corner radius of the background as a fraction of the size; 0 = full bleed square. */
  cornerRadius: number;
}

function drawIcon(size: number, design: IconDesign): Buffer {
  const samples = 4;
  const rgba = new Uint8Array(size * size * 4);
  const half = size / 2;
  const barHalfWidth = design.starRadius * size * 0.19;
  const barHalfLength = design.starRadius * size;
  const corner = design.cornerRadius * size;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let inside = 0;
      let star = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = px + (sx + 0.5) / samples;
          const y = py + (sy + 0.5) / samples;
          // rounded-square background
          const cx = Math.max(corner, Math.min(size - corner, x));
          const cy = Math.max(corner, Math.min(size - corner, y));
          const inBackground = corner === 0 || (x - cx) ** 2 + (y - cy) ** 2 <= corner * corner;
          if (!inBackground) continue;
          inside++;
          const rx = x - half;
          const ry = y - half;
          if (
            [0, 1, 2].some((i) =>
              inBar(rx, ry, Math.PI / 2 + (i * Math.PI) / 3, barHalfLength, barHalfWidth),
            )
          ) {
            star++;
          }
        }
      }
      const total = samples * samples;
      const starShare = inside === 0 ? 0 : star / inside;
      const offset = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) {
        rgba[offset + c] = Math.round(
          (THEME_RGB[c] ?? 0) * (1 - starShare) + (WHITE[c] ?? 0) * starShare,
        );
      }
      rgba[offset + 3] = Math.round((inside / total) * 255);
    }
  }
  return encodePng(size, rgba);
}

const outDir = resolve(dirname(fileURLToPath(import.meta.url)), '../public/icons');
mkdirSync(outDir, { recursive: true });

const icons: Array<{ file: string; size: number; design: IconDesign }> = [
  { file: 'icon-192.png', size: 192, design: { starRadius: 0.36, cornerRadius: 0.18 } },
  { file: 'icon-512.png', size: 512, design: { starRadius: 0.36, cornerRadius: 0.18 } },
  // Maskable: full bleed, star inside the 80 % safe zone the platform may crop to.
  { file: 'icon-maskable-512.png', size: 512, design: { starRadius: 0.28, cornerRadius: 0 } },
  { file: 'apple-touch-icon-180.png', size: 180, design: { starRadius: 0.32, cornerRadius: 0 } },
];

for (const icon of icons) {
  writeFileSync(resolve(outDir, icon.file), drawIcon(icon.size, icon.design));
  console.log(`wrote ${icon.file}`);
}
