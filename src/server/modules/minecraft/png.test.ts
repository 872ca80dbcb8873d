import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodePng, encodePng } from './png.ts';

/** A PNG the way other encoders write them: a chosen filter per row, and any colour type we read. */
function foreignPng(width: number, height: number, colorType: 2 | 3 | 6, rows: number[][], filters: number[], extra: [string, Buffer][] = []): Buffer {
  const bpp = colorType === 6 ? 4 : colorType === 2 ? 3 : 1;
  const stride = width * bpp;
  const raw: number[] = [];
  rows.forEach((row, y) => {
    const f = filters[y % filters.length]!;
    raw.push(f);
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? row[x - bpp]! : 0;
      const b = y > 0 ? rows[y - 1]![x]! : 0;
      const c = x >= bpp && y > 0 ? rows[y - 1]![x - bpp]! : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][f]!;
      raw.push((row[x]! - predictor) & 0xff);
    }
  });
  // Reuse our encoder for the signature, header and end; swap in this IDAT and any extra chunks.
  const base = encodePng({ width, height, data: Buffer.alloc(width * height * 4) });
  const ihdr = Buffer.from(base.subarray(8, 33));
  ihdr[8 + 9] = colorType;
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(body.length);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, body, Buffer.alloc(4)]);
  };
  return Buffer.concat([base.subarray(0, 8), ihdr, ...extra.map(([t, b]) => chunk(t, b)), chunk('IDAT', deflateSync(Buffer.from(raw))), chunk('IEND', Buffer.alloc(0))]);
}

describe('png', () => {
  const rgba = (w: number, h: number) => Array.from({ length: h }, (_, y) => Array.from({ length: w * 4 }, (_, x) => (x * 37 + y * 91) & 0xff));

  it('round-trips what it encodes', () => {
    const data = Buffer.from(rgba(5, 3).flat());
    expect(decodePng(encodePng({ width: 5, height: 3, data }))).toEqual({ width: 5, height: 3, data });
  });

  it('undoes every row filter (none, sub, up, average, paeth)', () => {
    const rows = rgba(6, 5);
    expect(decodePng(foreignPng(6, 5, 6, rows, [0, 1, 2, 3, 4])).data).toEqual(Buffer.from(rows.flat()));
  });

  it('reads truecolour without alpha and palette images with transparency', () => {
    const rgb = [
      [1, 2, 3, 4, 5, 6],
      [7, 8, 9, 10, 11, 12],
    ];
    expect([...decodePng(foreignPng(2, 2, 2, rgb, [1, 4])).data]).toEqual([1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 255, 10, 11, 12, 255]);
    const palette = Buffer.from([255, 0, 0, 0, 0, 255]);
    const image = decodePng(foreignPng(2, 1, 3, [[1, 0]], [0], [['PLTE', palette], ['tRNS', Buffer.from([0])]]));
    expect([...image.data]).toEqual([0, 0, 255, 255, 255, 0, 0, 0]);
  });

  it('refuses what is not a PNG', () => {
    expect(() => decodePng(Buffer.from('GIF89a'))).toThrow('not a PNG');
  });
});
