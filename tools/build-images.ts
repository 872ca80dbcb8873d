import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

/**
 * Our own raster images, written as webp at densities 1x and 2x before `vite build` copies public/.
 * The hero is drawn from code (a block landscape), so the repository holds no binary.
 */
const out = path.join(import.meta.dirname, '..', 'public', 'images', 'generated');

function heroSvg(width: number, height: number): string {
  const size = 40;
  const cols = Math.ceil(width / size);
  const rows = Math.ceil(height / size);
  // A fixed seed: the same picture on every build.
  let seed = 7;
  const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const blocks: string[] = [];
  for (let c = 0; c < cols; c++) {
    const ground = Math.round(rows * 0.62 + Math.sin(c / 5) * 2.2 + Math.sin(c / 2.3) * 0.8);
    for (let r = ground; r < rows; r++) {
      const depth = r - ground;
      const fill = depth === 0 ? '#4caf50' : depth < 3 ? '#8d6e63' : rand() < 0.08 ? '#b388ff' : '#616161';
      const shade = 0.85 + rand() * 0.3;
      blocks.push(`<rect x="${c * size}" y="${r * size}" width="${size}" height="${size}" fill="${fill}" fill-opacity="${shade.toFixed(2)}" stroke="#000" stroke-opacity=".18"/>`);
    }
    if (rand() < 0.12 && c > 1 && c < cols - 2) {
      const top = ground - 4;
      for (let r = top + 2; r < ground; r++) blocks.push(`<rect x="${c * size}" y="${r * size}" width="${size}" height="${size}" fill="#6d4c41" stroke="#000" stroke-opacity=".2"/>`);
      for (let dc = -1; dc <= 1; dc++)
        for (let r = top; r < top + 2; r++) blocks.push(`<rect x="${(c + dc) * size}" y="${r * size}" width="${size}" height="${size}" fill="#2e7d32" stroke="#000" stroke-opacity=".2"/>`);
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1b1035"/><stop offset=".55" stop-color="#3a1f6e"/><stop offset="1" stop-color="#1e4d2b"/></linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#sky)"/>
  ${blocks.join('')}
</svg>`;
}

fs.mkdirSync(out, { recursive: true });
const svg = Buffer.from(heroSvg(1600, 900));
for (const [density, width] of [
  [1, 1600],
  [2, 3200],
] as const) {
  await sharp(svg, { density: 72 * density })
    .resize(width)
    .webp({ quality: 72 })
    .toFile(path.join(out, `hero-${density}x.webp`));
}
console.log(`images: hero 1x and 2x webp in ${path.relative(process.cwd(), out)}`);
