import { PNG } from 'pngjs';

/** An RGBA image, 4 bytes a pixel, row after row. */
export interface Image {
  width: number;
  height: number;
  data: Buffer;
}

/** Skins are 64 pixels wide; a bigger image is refused before it is inflated. */
const MAX_SIDE = 1024;

/** An 8-bit RGBA PNG. */
export function encodePng({ width, height, data }: Image): Buffer {
  const png = new PNG({ width, height });
  data.copy(png.data);
  return PNG.sync.write(png);
}

/**
 * Decodes a skin's PNG to RGBA, whatever its colour type, depth or interlacing. A damaged one throws,
 * and the caller falls back to a generated skin.
 */
export function decodePng(png: Buffer): Image {
  // The header's size, read before pngjs inflates anything.
  if (png.length >= 24 && (png.readUInt32BE(16) > MAX_SIDE || png.readUInt32BE(20) > MAX_SIDE)) throw new Error('PNG too large for a skin');
  const { width, height, data } = PNG.sync.read(png);
  return { width, height, data };
}
