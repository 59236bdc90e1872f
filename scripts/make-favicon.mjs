// Draws public/favicon.ico: a white check mark on a rounded square in the app's blue (Tailwind's
// blue-700, the primary button colour). Node built-ins only, so it needs no image tool; run
// `node scripts/make-favicon.mjs` after changing the design and commit the .ico it writes.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BLUE = [0x14, 0x47, 0xe6];
const SIZES = [16, 32];
const SAMPLES = 4; // per axis: 16 samples a pixel smooth the edges

/** Distance from point p to the segment a–b, all in units of the icon's side. */
function segmentDistance([px, py], [ax, ay], [bx, by]) {
  const [dx, dy] = [bx - ax, by - ay];
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/** The design at a point of the unit square: [r, g, b, a], or null outside it. */
function shade(x, y) {
  const radius = 0.2;
  const cx = Math.max(radius, Math.min(1 - radius, x));
  const cy = Math.max(radius, Math.min(1 - radius, y));
  if (Math.hypot(x - cx, y - cy) > radius) return null;
  const check = [
    [0.25, 0.52],
    [0.43, 0.7],
    [0.76, 0.32],
  ];
  const onCheck = Math.min(segmentDistance([x, y], check[0], check[1]), segmentDistance([x, y], check[1], check[2])) < 0.075;
  return onCheck ? [255, 255, 255] : BLUE;
}

/** Straight-alpha RGBA pixels, top row first. */
function render(size) {
  const pixels = Buffer.alloc(size * size * 4);
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const sum = [0, 0, 0];
      let covered = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const colour = shade((col + (sx + 0.5) / SAMPLES) / size, (row + (sy + 0.5) / SAMPLES) / size);
          if (!colour) continue;
          covered++;
          colour.forEach((c, i) => (sum[i] += c));
        }
      }
      const at = (row * size + col) * 4;
      if (covered) sum.forEach((c, i) => (pixels[at + i] = Math.round(c / covered)));
      pixels[at + 3] = Math.round((255 * covered) / (SAMPLES * SAMPLES));
    }
  }
  return pixels;
}

/** One icon image as a 32-bit BMP without its file header, as the ICO format stores it. */
function bmp(size, rgba) {
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  header.writeInt32LE(size * 2, 8); // the colour rows and the AND mask rows
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  const colour = Buffer.alloc(size * size * 4);
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const from = (row * size + col) * 4;
      const to = ((size - 1 - row) * size + col) * 4; // BMP rows run bottom-up, as BGRA
      colour[to] = rgba[from + 2];
      colour[to + 1] = rgba[from + 1];
      colour[to + 2] = rgba[from];
      colour[to + 3] = rgba[from + 3];
    }
  }
  // The 1-bit AND mask is ignored when there is alpha, but must be present: all zero, rows padded to 4 bytes.
  const mask = Buffer.alloc(Math.ceil(size / 32) * 4 * size);
  return Buffer.concat([header, colour, mask]);
}

function ico(sizes) {
  const images = sizes.map((size) => bmp(size, render(size)));
  const directory = Buffer.alloc(6 + 16 * sizes.length);
  directory.writeUInt16LE(1, 2); // type 1: icon
  directory.writeUInt16LE(sizes.length, 4);
  let offset = directory.length;
  sizes.forEach((size, i) => {
    const entry = 6 + 16 * i;
    directory.writeUInt8(size, entry);
    directory.writeUInt8(size, entry + 1);
    directory.writeUInt16LE(1, entry + 4); // colour planes
    directory.writeUInt16LE(32, entry + 6); // bits per pixel
    directory.writeUInt32LE(images[i].length, entry + 8);
    directory.writeUInt32LE(offset, entry + 12);
    offset += images[i].length;
  });
  return Buffer.concat([directory, ...images]);
}

const target = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'public', 'favicon.ico');
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, ico(SIZES));
console.log(`wrote ${path.relative(process.cwd(), target)}`);
