// Cuts the PDF fonts (web/src/lib/pdf/fonts/*.ttf) out of Noto Sans (SIL OFL 1.1, from the
// @expo-google-fonts/noto-sans dev dependency): only the blocks a South African service's
// names and notes need (Latin with every extension, Greek, Cyrillic, punctuation, currency,
// a few signs), no hinting (a PDF is printed or viewed zoomed, not rendered at 9 px) and no
// OpenType layout features (pdf-lib places glyphs one by one and the layout module composes
// text to NFC first, so ligatures, kerning and mark positioning would only add bytes). Run once with `node web/scripts/subset-pdf-fonts.mjs` after changing the ranges;
// the output is committed. pdf-lib subsets again to the glyphs each PDF uses.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import subsetFont from 'subset-font';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(here, '../src/lib/pdf/fonts');
const pkg = dirname(require.resolve('@expo-google-fonts/noto-sans/package.json'));

/** Unicode blocks kept, as [first, last] code points. */
const RANGES = [
  [0x20, 0x7e], // Basic Latin
  [0xa0, 0x24f], // Latin-1 Supplement, Latin Extended-A and -B
  [0x2b0, 0x2ff], // spacing modifier letters (ʼ, ˆ, ˜)
  [0x300, 0x36f], // combining diacritics, for marks no precomposed letter holds
  [0x370, 0x3ff], // Greek
  [0x400, 0x4ff], // Cyrillic
  [0x1e00, 0x1eff], // Latin Extended Additional (Vietnamese, Welsh ŵ ŷ)
  [0x2000, 0x206f], // general punctuation (dashes, quotes, bullet, ellipsis)
  [0x20a0, 0x20cf], // currency (€, ₹)
  [0x2103, 0x2103], // ℃
  [0x2116, 0x2116], // №
  [0x2122, 0x2122], // ™
  [0x2190, 0x2193], // ← ↑ → ↓
  [0x2212, 0x2212], // − (minus)
  [0x2248, 0x2248], // ≈
  [0x2264, 0x2265], // ≤ ≥
];

const text = RANGES.flatMap(([a, b]) =>
  Array.from({ length: b - a + 1 }, (_, i) => String.fromCodePoint(a + i)),
).join('');

for (const [face, file] of [
  ['regular', '400Regular/NotoSans_400Regular.ttf'],
  ['bold', '700Bold/NotoSans_700Bold.ttf'],
]) {
  const source = readFileSync(resolve(pkg, file));
  const subset = await subsetFont(source, text, {
    targetFormat: 'sfnt',
    noHinting: true,
    keepFeatures: [],
  });
  writeFileSync(resolve(out, `noto-sans-${face}.ttf`), subset);
  console.log(`${face}: ${String(source.length)} -> ${String(subset.length)} bytes`);
}
copyFileSync(resolve(pkg, 'LICENSE_FONT'), resolve(out, 'OFL.txt'));
