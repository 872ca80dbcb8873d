import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { HttpProblem } from '../../lib/problems.ts';
import { ObjectNotFoundError, type ObjectStore } from '../../storage/index.ts';

/** The largest upload the image route takes. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Where uploaded definition images are served; the stored name is the hash of their content. */
export const IMAGE_URL_PREFIX = '/media/definitions/';
/** A stored image's file name: content hash, density. */
const IMAGE_FILE = /^[0-9a-f]{32}-[12]x\.webp$/;
/** Cards and the product page show images at 16:9; 1x fits a card column, 2x the same on a dense screen. */
const SIZES = [
  { density: 1, width: 640, height: 360 },
  { density: 2, width: 1280, height: 720 },
] as const;
/** Beyond this many pixels (8000 × 5000), decoding would cost more memory than an image of the catalogue is worth. */
const MAX_INPUT_PIXELS = 40_000_000;

type Kind = 'png' | 'jpeg' | 'webp';

/** What the bytes are, by their signature: the declared type of an upload is not trusted. */
function sniffImage(bytes: Buffer): Kind | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

/** The 2x URL of an uploaded image's 1x URL; null for an image that was not uploaded here. */
export function srcSetOf(image: string | null): string | null {
  if (!image?.startsWith(IMAGE_URL_PREFIX)) return null;
  const file = image.slice(IMAGE_URL_PREFIX.length);
  if (!IMAGE_FILE.test(file) || !file.endsWith('-1x.webp')) return null;
  return `${image} 1x, ${image.replace(/-1x\.webp$/, '-2x.webp')} 2x`;
}

/** Their keys in the object store: `DATA_DIR/media/definitions/` locally, `media/definitions/` in a bucket. */
const KEY_PREFIX = 'media/definitions/';

/**
 * Definition images uploaded by staff: checked, cropped to 16:9 and stored as WebP at 1x and 2x in
 * the object store (so every replica serves every image), under the hash of what was written, so a
 * name never changes content and can be cached for good.
 */
export class DefinitionImages {
  private readonly objects: ObjectStore;

  constructor(store: ObjectStore) {
    this.objects = store;
  }

  /** Stores an upload; answers its 1x URL. 415 when the bytes are no PNG, JPEG or WebP; 422 when they do not decode. */
  async store(bytes: Buffer): Promise<string> {
    if (!sniffImage(bytes)) throw new HttpProblem(415, 'catalogue.notAnImage');
    // The image library is loaded at the first upload, not at every start of the API.
    const { default: sharp } = await import('sharp');
    let outputs: Buffer[];
    try {
      outputs = await Promise.all(
        SIZES.map(({ width, height }) =>
          sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
            // Photos from phones are stored sideways with an orientation tag: turn them upright first.
            .rotate()
            .resize(width, height, { fit: 'cover' })
            .webp({ quality: 80 })
            .toBuffer(),
        ),
      );
    } catch (err) {
      throw new HttpProblem(422, 'catalogue.unreadableImage');
    }
    const hash = createHash('sha256');
    for (const out of outputs) hash.update(out);
    const name = hash.digest('hex').slice(0, 32);
    // The 2x first: a 1x URL handed out always has its 2x. The store never shows half an object.
    for (const [i, { density }] of [...SIZES.entries()].reverse()) await this.objects.put(`${KEY_PREFIX}${name}-${density}x.webp`, Readable.from([outputs[i]!]));
    return `${IMAGE_URL_PREFIX}${name}-1x.webp`;
  }

  /** A stored image's bytes (a few hundred kB at most), or null when there is none of that name. */
  async read(file: string): Promise<Buffer | null> {
    if (!IMAGE_FILE.test(file)) return null;
    try {
      return await buffer(await this.objects.read(`${KEY_PREFIX}${file}`));
    } catch (err) {
      if (err instanceof ObjectNotFoundError) return null;
      throw err;
    }
  }
}
