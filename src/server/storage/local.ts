import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkKey, checkPrefix, checkRange, ObjectNotFoundError, type ObjectLocation, type ObjectStore } from './store.ts';

/** Temp files end so; no key may (checkKey), so a temp file is never taken for an object. */
const PARTIAL = '.partial';

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * Objects as files under `root` (the product's DATA_DIR/backups). Every write goes to a temp file
 * beside its target, flushed to disk, then renamed over it: a rename is atomic on one filesystem,
 * so a crash or a failed stream leaves at most a `.partial` file, never a complete-looking object.
 */
export class LocalStore implements ObjectStore {
  readonly kind = 'local' as const;
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private file(key: string): string {
    checkKey(key);
    return path.join(this.root, key);
  }

  /** A fresh temp name per write, so two writers of one key never share a temp file. */
  private async tempFor(file: string): Promise<string> {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    return `${file}.${randomBytes(8).toString('hex')}${PARTIAL}`;
  }

  async put(key: string, body: NodeJS.ReadableStream): Promise<{ sizeBytes: number; sha256: string }> {
    const file = this.file(key);
    const temp = await this.tempFor(file);
    const hash = createHash('sha256');
    let sizeBytes = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        sizeBytes += chunk.length;
        done(null, chunk);
      },
    });
    try {
      // flush: fsync before close, so the renamed file holds its bytes even after a power cut.
      await pipeline(body, measure, fs.createWriteStream(temp, { flush: true }));
      await fs.promises.rename(temp, file);
    } catch (err) {
      await fs.promises.rm(temp, { force: true });
      throw err;
    }
    return { sizeBytes, sha256: hash.digest('hex') };
  }

  async stat(key: string): Promise<{ sizeBytes: number } | null> {
    try {
      const st = await fs.promises.stat(this.file(key));
      return st.isFile() ? { sizeBytes: st.size } : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<NodeJS.ReadableStream> {
    let handle: fs.promises.FileHandle;
    try {
      // Opened before streaming, so a missing object rejects here rather than as a stream error.
      handle = await fs.promises.open(this.file(key), 'r');
    } catch (err) {
      if (isMissing(err)) throw new ObjectNotFoundError(key);
      throw err;
    }
    if (!range) return handle.createReadStream();
    try {
      const { size } = await handle.stat();
      checkRange(range);
      if (range.start >= size) throw new RangeError(`Range ${range.start}-${range.end} starts past the end of "${key}" (${size} bytes)`);
      // A range past the end is cut to it, as HTTP and S3 do.
      return handle.createReadStream({ start: range.start, end: Math.min(range.end, size - 1) });
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async writeLocation(key: string): Promise<ObjectLocation> {
    return { kind: 'file', path: await this.tempFor(this.file(key)) };
  }

  async commitWrite(key: string, location: ObjectLocation): Promise<{ sizeBytes: number }> {
    const file = this.file(key);
    // Only a temp file writeLocation gave for this very key may be renamed into place: the
    // location may have travelled (a database row, a pod's status), so it is not trusted as is.
    const temp = location.kind === 'file' ? path.resolve(location.path) : '';
    if (!temp.startsWith(`${file}.`) || !/^\.[0-9a-f]{16}\.partial$/.test(temp.slice(file.length))) {
      throw new Error(`Location ${JSON.stringify(location)} is not a write location of "${key}"`);
    }
    let sizeBytes: number;
    try {
      sizeBytes = (await fs.promises.stat(temp)).size;
    } catch (err) {
      if (isMissing(err)) throw new ObjectNotFoundError(key);
      throw err;
    }
    await fs.promises.rename(temp, file);
    return { sizeBytes };
  }

  async readLocation(key: string): Promise<ObjectLocation> {
    const file = this.file(key);
    if ((await this.stat(key)) === null) throw new ObjectNotFoundError(key);
    return { kind: 'file', path: file };
  }

  /** Null: there is no URL for a local file, the API streams it itself. */
  async downloadUrl(key: string): Promise<string | null> {
    checkKey(key);
    return null;
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.file(key), { force: true });
  }

  async discard(key: string): Promise<void> {
    const file = this.file(key);
    await fs.promises.rm(file, { force: true });
    let names: string[];
    try {
      names = await fs.promises.readdir(path.dirname(file));
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    // The temp files `tempFor` names for this key, and only those.
    const base = path.basename(file);
    const temp = /^\.[0-9a-f]{16}\.partial$/;
    for (const name of names) {
      if (name.startsWith(`${base}.`) && temp.test(name.slice(base.length))) await fs.promises.rm(path.join(path.dirname(file), name), { force: true });
    }
  }

  async list(prefix: string): Promise<string[]> {
    checkPrefix(prefix);
    // Only the folder the prefix points into is walked, not the whole root.
    const dir = path.join(this.root, prefix.slice(0, prefix.lastIndexOf('/') + 1));
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { recursive: true, withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) return [];
      throw err;
    }
    return entries
      .filter((entry) => entry.isFile() && !entry.name.endsWith(PARTIAL))
      .map((entry) => path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
      .filter((key) => key.startsWith(prefix))
      .sort();
  }
}
