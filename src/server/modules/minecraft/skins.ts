import { createHash } from 'node:crypto';
import { decodePng, encodePng, type Image } from './png.ts';

/** Heads are the skin's 8x8 face scaled up by whole pixels, so they stay sharp. */
const HEAD_SIZE = 64;

type Rgb = [number, number, number];

function fill(image: Image, x0: number, y0: number, w: number, h: number, [r, g, b]: Rgb) {
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) image.data.set([r, g, b, 255], (y * image.width + x) * 4);
}

/**
 * A 64x64 skin drawn from the name's MD5, for the offline resolver and for accounts without a
 * skin: the same name always gets the same colours, different names almost always differ.
 */
export function generatedSkin(name: string): Buffer {
  const h = createHash('md5').update(name.toLowerCase()).digest();
  const tones: Rgb[] = [
    [245, 208, 170],
    [224, 172, 125],
    [198, 134, 66],
    [141, 85, 36],
    [255, 224, 196],
  ];
  const skin = tones[h[0]! % tones.length]!;
  const hair: Rgb = [h[1]! >> 1, h[2]! >> 1, h[3]! >> 2];
  const eyes: Rgb = [h[4]! >> 1, h[5]! >> 1, 128 + (h[6]! >> 1)];
  const shirt: Rgb = [h[7]!, h[8]!, h[9]!];
  const pants: Rgb = [h[10]! >> 1, h[11]! >> 1, h[12]! >> 1];
  const image: Image = { width: 64, height: 64, data: Buffer.alloc(64 * 64 * 4) };
  fill(image, 0, 0, 32, 16, skin); // head, all faces
  fill(image, 0, 0, 32, 10, hair); // hair over the top rows of every face and the top
  fill(image, 8, 8, 8, 2 + (h[13]! % 2), hair); // the face's fringe, one or two rows
  fill(image, 9, 12, 2, 1, [255, 255, 255]);
  fill(image, 13, 12, 2, 1, [255, 255, 255]);
  fill(image, 10, 12, 1, 1, eyes);
  fill(image, 13, 12, 1, 1, eyes);
  fill(image, 11, 14, 2, 1, [Math.max(0, skin[0] - 60), Math.max(0, skin[1] - 70), Math.max(0, skin[2] - 70)]); // mouth
  fill(image, 16, 16, 24, 16, shirt); // torso
  fill(image, 40, 16, 16, 16, skin); // right arm
  fill(image, 32, 48, 16, 16, skin); // left arm
  fill(image, 0, 16, 16, 16, pants); // right leg
  fill(image, 16, 48, 16, 16, pants); // left leg
  return encodePng(image);
}

/** The face (8,8) with the hat layer (40,8) drawn over it where opaque, scaled to HEAD_SIZE. */
export function headOf(skinPng: Buffer): Buffer {
  const skin = decodePng(skinPng);
  if (skin.width !== 64 || (skin.height !== 64 && skin.height !== 32)) throw new Error('not a skin');
  const scale = HEAD_SIZE / 8;
  const head: Image = { width: HEAD_SIZE, height: HEAD_SIZE, data: Buffer.alloc(HEAD_SIZE * HEAD_SIZE * 4) };
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      const face = ((8 + y) * 64 + 8 + x) * 4;
      const hat = ((8 + y) * 64 + 40 + x) * 4;
      const from = skin.data[hat + 3]! >= 128 ? hat : face;
      const pixel = [skin.data[from]!, skin.data[from + 1]!, skin.data[from + 2]!, 255];
      for (let dy = 0; dy < scale; dy++) for (let dx = 0; dx < scale; dx++) head.data.set(pixel, ((y * scale + dy) * HEAD_SIZE + x * scale + dx) * 4);
    }
  }
  return encodePng(head);
}
