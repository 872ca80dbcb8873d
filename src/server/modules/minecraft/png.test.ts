import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { decodePng, encodePng } from './png.ts';

describe('png', () => {
  const rgba = (w: number, h: number) => Buffer.from(Array.from({ length: w * h * 4 }, (_, i) => (i * 37) & 0xff));

  it('round-trips what it encodes', () => {
    const data = rgba(5, 3);
    expect(decodePng(encodePng({ width: 5, height: 3, data }))).toEqual({ width: 5, height: 3, data });
  });

  it('reads truecolour without alpha as opaque RGBA', () => {
    const image = new PNG({ width: 2, height: 1 });
    Buffer.from([1, 2, 3, 255, 4, 5, 6, 255]).copy(image.data);
    const rgb = PNG.sync.write(image, { colorType: 2 });
    expect(rgb[25]).toBe(2); // the header's colour type: truecolour, 3 bytes a pixel
    expect([...decodePng(rgb).data]).toEqual([1, 2, 3, 255, 4, 5, 6, 255]);
  });

  it('refuses what is not a PNG, and a skin too large to be one', () => {
    expect(() => decodePng(Buffer.from('GIF89a'))).toThrow();
    const huge = encodePng({ width: 1, height: 1, data: rgba(1, 1) });
    huge.writeUInt32BE(4096, 16);
    expect(() => decodePng(huge)).toThrow('PNG too large for a skin');
  });
});
