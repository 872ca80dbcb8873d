/**
 * World snapshots as zip files, made and read where the world lives (the launcher or the world
 * tool), never in the API process. Everything streams: a world of gigabytes never sits in memory.
 *
 * A snapshot is a zip Minecraft Java opens as-is: every entry under one folder, `level.dat` in it.
 * A zip given back for a restore is untrusted (a player may upload one): it is inspected before a
 * byte is written, unpacked into a staging folder with the limits enforced while writing (its
 * headers may lie), checked, and only then swapped in place of the world, so a refused or broken
 * restore leaves the current world as it was.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import zlib from 'node:zlib';
import type * as Nbt from 'prismarine-nbt';
import yauzl from 'yauzl';
import yazl from 'yazl';
import type { ObjectLocation } from '../driver.ts';

/** Why a snapshot or a restore was refused; `code` is a translation key the platform shows. */
export type WorldArchiveCode =
  | 'archive.not-zip'
  | 'archive.too-large'
  | 'archive.too-many-entries'
  | 'archive.unpacked-too-large'
  | 'archive.ratio'
  | 'archive.unsafe-path'
  | 'archive.link'
  | 'archive.no-level-dat'
  | 'world.corrupt'
  | 'transfer.failed';

export class WorldArchiveError extends Error {
  readonly code: WorldArchiveCode;
  readonly detail: string;
  constructor(code: WorldArchiveCode, detail = '') {
    super(detail ? `${code}: ${detail}` : code);
    this.name = 'WorldArchiveError';
    this.code = code;
    this.detail = detail;
  }
}

export interface ArchiveLimits {
  maxEntries: number;
  /** Bound on the world's unpacked size, declared and actual. */
  maxUnpackedBytes: number;
  /** Bound on the zip itself: the game's storage quota says it. */
  maxArchiveBytes: number;
}

/**
 * The most a world's zip may unpack to, per byte of zip. A world is mostly region files whose chunks
 * are zlib-compressed already, so zipping gains little. Fresh flying-squid worlds a player joined
 * (measured with archiveWorld: 1.21.4, 181 KB to 42 KB; 1.8.8, 623 KB to 133 KB) unpack to 4.4 and
 * 4.7 times their zip, and small worlds are the worst case, their 8 KiB region headers and sector
 * padding (zeros) weighing most; a bigger world holds more compressed chunk data and tends to 1:1. Twenty leaves a wide margin for any real
 * world, while a zip bomb inflates hundreds or thousands of times (one 2 MB zip gave 2 GB, 1 028:1).
 */
export const MAX_UNPACK_RATIO = 20;
/**
 * What any zip may unpack to beyond the ratio: a tiny world (a few headers, a level.dat) has a high
 * ratio on few bytes, and is harmless.
 */
const RATIO_ALLOWANCE_BYTES = 16 * 1024 * 1024;

/**
 * The unpacked bound follows the zip's own bound (the package's backup size) when there is one;
 * without one (tools and tests given no package), the ratio alone bounds it, under 10 GiB.
 */
const defaultLimits: ArchiveLimits = { maxEntries: 50_000, maxUnpackedBytes: 10 * 1024 ** 3, maxArchiveBytes: Number.POSITIVE_INFINITY };

/** The most a zip under `maxArchiveBytes` (a package's backup size) may unpack to. */
export function maxUnpackedFor(maxArchiveBytes: number): number {
  return Number.isFinite(maxArchiveBytes) ? maxArchiveBytes * MAX_UNPACK_RATIO + RATIO_ALLOWANCE_BYTES : defaultLimits.maxUnpackedBytes;
}

export interface ArchiveResult {
  sizeBytes: number;
  sha256: string;
}

/** Temporary files and folders of ours in a game folder; a crash may leave them behind. */
const tempZipPrefix = '.world-backup-';
const stagingPrefix = 'world.staging-';

function tempZipPath(gameDir: string): string {
  return path.join(gameDir, `${tempZipPrefix}${crypto.randomBytes(6).toString('hex')}.zip`);
}

function stagingPath(gameDir: string): string {
  return path.join(gameDir, `${stagingPrefix}${crypto.randomBytes(6).toString('hex')}`);
}

/** Files of the world, relative, sorted, skipping what is not a file or folder (links). */
async function* walk(dir: string, rel = ''): AsyncGenerator<{ rel: string; isDir: boolean }> {
  const entries = await fs.promises.readdir(path.join(dir, rel), { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      yield { rel: child, isDir: true };
      yield* walk(dir, child);
    } else if (entry.isFile()) {
      // The lock of a running server: vanilla refuses a world whose lock it cannot take.
      if (child === 'session.lock') continue;
      yield { rel: child, isDir: false };
    }
  }
}

/** Hashes and counts what passes. */
function measure(onChunk: (chunk: Buffer) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      onChunk(chunk);
      callback(null, chunk);
    },
  });
}

/** Calls `report` with a fraction of 0 to 1 when it moved by a percent at least, never going back. */
function progressOf(report: ((fraction: number) => void) | undefined): (fraction: number) => void {
  let last = -1;
  return (fraction) => {
    const percent = Math.floor(Math.min(Math.max(fraction, 0), 1) * 100);
    if (!report || percent <= last) return;
    last = percent;
    report(percent / 100);
  };
}

/**
 * Zips `worldDir` into `outFile` with every entry under `rootName/`. yazl reads one file at a time
 * from disk, so memory stays flat whatever the world's size. `onProgress` follows the zip's bytes
 * against the files' total: region files are compressed already, so the two go nearly together.
 */
export async function archiveWorld(worldDir: string, outFile: string, rootName: string, onProgress?: (fraction: number) => void): Promise<ArchiveResult> {
  if (!fs.existsSync(path.join(worldDir, 'level.dat'))) throw new Error(`${worldDir} holds no world (no level.dat)`);
  const entries: Array<{ rel: string; isDir: boolean; size: number }> = [];
  for await (const { rel, isDir } of walk(worldDir)) {
    entries.push({ rel, isDir, size: isDir ? 0 : (await fs.promises.stat(path.join(worldDir, ...rel.split('/')))).size });
  }
  const total = Math.max(
    1,
    entries.reduce((sum, e) => sum + e.size, 0),
  );
  const progress = progressOf(onProgress);
  const zip = new yazl.ZipFile();
  const hash = crypto.createHash('sha256');
  let sizeBytes = 0;
  const written = pipeline(
    zip.outputStream,
    measure((chunk) => {
      hash.update(chunk);
      sizeBytes += chunk.length;
      // Never 100 % before the zip is whole.
      progress(Math.min(sizeBytes / total, 0.99));
    }),
    // flush: fsync before close, so the zip moved under the object's name holds its bytes even
    // after a power cut, as the object store's own writes do.
    fs.createWriteStream(outFile, { flags: 'wx', flush: true }),
  );
  // yazl reports a file it cannot read on the ZipFile, not on its stream.
  const failed = new Promise<never>((_, reject) => zip.on('error', reject));
  // Observed at once: an error may come while the folder is still being walked.
  written.catch(() => {});
  failed.catch(() => {});
  try {
    zip.addEmptyDirectory(`${rootName}/`);
    for (const { rel, isDir } of entries) {
      if (isDir) zip.addEmptyDirectory(`${rootName}/${rel}/`);
      else zip.addFile(path.join(worldDir, ...rel.split('/')), `${rootName}/${rel}`);
    }
    zip.end();
    await Promise.race([written, failed]);
  } catch (err) {
    (zip.outputStream as Readable).destroy();
    await written.catch(() => {});
    await fs.promises.rm(outFile, { force: true });
    throw err;
  }
  return { sizeBytes, sha256: hash.digest('hex') };
}

async function openZip(zipFile: string): Promise<yauzl.ZipFile> {
  try {
    // Raw names: we judge the bytes ourselves (yauzl would rewrite backslashes and prefer a
    // Unicode extra field over the name), and count sizes ourselves, as its check is per entry.
    return await yauzl.openPromise(zipFile, { lazyEntries: true, decodeStrings: false, validateEntrySizes: false, autoClose: false });
  } catch (err) {
    throw new WorldArchiveError('archive.not-zip', err instanceof Error ? err.message : String(err));
  }
}

async function* entriesOf(zip: yauzl.ZipFile): AsyncGenerator<yauzl.Entry> {
  for (;;) {
    const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
      const done = () => {
        zip.off('entry', onEntry);
        zip.off('end', onEnd);
        zip.off('error', onError);
      };
      const onEntry = (e: yauzl.Entry) => (done(), resolve(e));
      const onEnd = () => (done(), resolve(null));
      const onError = (err: Error) => (done(), reject(new WorldArchiveError('archive.not-zip', err.message)));
      zip.on('entry', onEntry);
      zip.on('end', onEnd);
      zip.on('error', onError);
      zip.readEntry();
    });
    if (!entry) return;
    yield entry;
  }
}

/** The entry's name, refused when it could land outside the folder it is unpacked into. */
function safeName(entry: yauzl.Entry): string {
  // Bit 11: UTF-8 names. Others are CP437, whose ASCII (all that matters below) is latin1's.
  const name = entry.fileNameRaw.toString(entry.generalPurposeBitFlag & 0x800 ? 'utf8' : 'latin1');
  const unsafe = name === '' || name.includes('\\') || name.includes('\0') || name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.split('/').includes('..');
  if (unsafe) throw new WorldArchiveError('archive.unsafe-path', name);
  // The high 16 bits are the Unix mode when a Unix tool made the zip; S_IFLNK is a symlink.
  if (((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000) throw new WorldArchiveError('archive.link', name);
  return name;
}

function withDefaults(limits: Partial<ArchiveLimits>): ArchiveLimits {
  const maxArchiveBytes = limits.maxArchiveBytes ?? defaultLimits.maxArchiveBytes;
  return { ...defaultLimits, maxUnpackedBytes: maxUnpackedFor(maxArchiveBytes), ...limits };
}

/**
 * Reads the zip's directory without unpacking anything and refuses what is not a world or is
 * unsafe. Returns the prefix of the world's folder in the zip: '' or 'name/'.
 */
export async function inspectArchive(zipFile: string, limits: Partial<ArchiveLimits> = {}): Promise<string> {
  const { maxEntries, maxUnpackedBytes, maxArchiveBytes } = withDefaults(limits);
  const { size } = await fs.promises.stat(zipFile);
  if (size > maxArchiveBytes) throw new WorldArchiveError('archive.too-large', `${size} bytes, at most ${maxArchiveBytes}`);
  const zip = await openZip(zipFile);
  try {
    // The count the zip declares, before reading any: a zip of millions of entries stops here.
    if (zip.entryCount > maxEntries) throw new WorldArchiveError('archive.too-many-entries', `${zip.entryCount} entries, at most ${maxEntries}`);
    let declared = 0;
    let count = 0;
    let atRoot = false;
    const tops = new Set<string>();
    for await (const entry of entriesOf(zip)) {
      if (++count > maxEntries) throw new WorldArchiveError('archive.too-many-entries', `more than ${maxEntries} entries`);
      const name = safeName(entry);
      declared += entry.uncompressedSize;
      if (declared > maxUnpackedBytes) throw new WorldArchiveError('archive.unpacked-too-large', `more than ${maxUnpackedBytes} bytes unpacked`);
      // The sizes declared are checked against the bytes written while unpacking, so they bound it.
      if (declared > size * MAX_UNPACK_RATIO + RATIO_ALLOWANCE_BYTES) throw new WorldArchiveError('archive.ratio', `more than ${MAX_UNPACK_RATIO} times its ${size} bytes unpacked`);
      if (name === 'level.dat') atRoot = true;
      const top = /^([^/]+)\/level\.dat$/.exec(name);
      if (top) tops.add(top[1]!);
    }
    if (atRoot) return '';
    if (tops.size === 1) return `${[...tops][0]!}/`;
    throw new WorldArchiveError('archive.no-level-dat', tops.size > 1 ? `level.dat in ${tops.size} folders` : 'no level.dat');
  } finally {
    zip.close();
  }
}

/**
 * Unpacks the world of `zipFile` (its folder's content, without the folder) into `stagingDir`,
 * which must not exist. The limits hold while writing: an entry that inflates to more than it
 * declared, or a total beyond the bound, stops it. The caller removes `stagingDir` on failure.
 */
export async function unpackWorld(zipFile: string, stagingDir: string, limits: Partial<ArchiveLimits> = {}): Promise<void> {
  const all = withDefaults(limits);
  const prefix = await inspectArchive(zipFile, all);
  await fs.promises.mkdir(stagingDir);
  const zip = await openZip(zipFile);
  let total = 0;
  try {
    for await (const entry of entriesOf(zip)) {
      const name = safeName(entry);
      if (!name.startsWith(prefix)) continue;
      const rel = name.slice(prefix.length).replace(/\/+$/, '');
      if (rel === '' || rel === 'session.lock') continue;
      const dest = path.join(stagingDir, ...rel.split('/'));
      try {
        await fs.promises.mkdir(name.endsWith('/') ? dest : path.dirname(dest), { recursive: true });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EEXIST' || code === 'ENOTDIR') throw new WorldArchiveError('archive.unsafe-path', `${name} clashes with another entry`);
        throw err;
      }
      if (name.endsWith('/')) continue;
      let read: Readable;
      try {
        read = await zip.openReadStreamPromise(entry);
      } catch (err) {
        throw new WorldArchiveError('archive.not-zip', `${name}: ${err instanceof Error ? err.message : String(err)}`);
      }
      let bytes = 0;
      const bounded = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          bytes += chunk.length;
          total += chunk.length;
          if (bytes > entry.uncompressedSize) callback(new WorldArchiveError('archive.unpacked-too-large', `${name} holds more than the ${entry.uncompressedSize} bytes it declares`));
          else if (total > all.maxUnpackedBytes) callback(new WorldArchiveError('archive.unpacked-too-large', `more than ${all.maxUnpackedBytes} bytes unpacked`));
          else callback(null, chunk);
        },
      });
      try {
        // 'wx': a second entry of the same name is refused, never written over the first. flush:
        // on disk before the swap deletes the old world, so a power cut cannot leave empty files.
        await pipeline(read, bounded, fs.createWriteStream(dest, { flags: 'wx', flush: true }));
      } catch (err) {
        if (err instanceof WorldArchiveError) throw err;
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EEXIST' || code === 'EISDIR' || code === 'ENOTDIR') throw new WorldArchiveError('archive.unsafe-path', `${name} clashes with another entry`);
        if (code && (err as NodeJS.ErrnoException).syscall) throw err;
        // Inflating failed: the data is not what the zip says.
        throw new WorldArchiveError('archive.not-zip', `${name}: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (bytes !== entry.uncompressedSize) throw new WorldArchiveError('archive.not-zip', `${name} holds ${bytes} bytes, not the ${entry.uncompressedSize} it declares`);
    }
  } finally {
    zip.close();
  }
}

/**
 * prismarine-nbt is CommonJS; its typings declare the module by name. Loaded when a world is first
 * checked (a restore): with protodef and its validator, it is most of what the world tool loads,
 * and a snapshot, the tool's most frequent run, never reads NBT.
 */
let nbtModule: typeof Nbt | undefined;
const nbt = () => (nbtModule ??= createRequire(import.meta.url)('prismarine-nbt') as typeof Nbt);

const sector = 4096;

function corrupt(detail: string): never {
  throw new WorldArchiveError('world.corrupt', detail);
}

/** An Anvil region file: a 8 KiB header (chunk locations, timestamps), then 4 KiB sectors. */
async function checkRegionFile(file: string, name: string): Promise<void> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size === 0) return;
    if (size < 2 * sector || size % sector !== 0) corrupt(`${name} is ${size} bytes, not a whole number of 4 KiB sectors after its header`);
    const header = Buffer.alloc(sector);
    await handle.read(header, 0, sector, 0);
    const sectors = size / sector;
    for (let i = 0; i < 1024; i++) {
      const location = header.readUInt32BE(i * 4);
      if (location === 0) continue;
      const offset = location >>> 8;
      const count = location & 0xff;
      if (offset < 2 || offset + count > sectors) corrupt(`${name}: chunk ${i} points at sectors ${offset}+${count} of ${sectors}`);
    }
  } finally {
    await handle.close();
  }
}

/** Whether `dir` holds a world a server can load: a readable level.dat and sound region headers. */
export async function checkWorld(dir: string): Promise<void> {
  let raw: Buffer;
  try {
    raw = await fs.promises.readFile(path.join(dir, 'level.dat'));
  } catch {
    corrupt('level.dat is missing');
  }
  if (raw[0] !== 0x1f || raw[1] !== 0x8b) corrupt('level.dat is not gzipped');
  try {
    // A level.dat is a few KiB: a bound keeps a gzip bomb from filling the memory.
    const parsed = nbt().parseUncompressed(zlib.gunzipSync(raw, { maxOutputLength: 64 * 1024 * 1024 }), 'big');
    if (parsed.value.Data?.type !== 'compound') corrupt('level.dat has no Data');
  } catch (err) {
    if (err instanceof WorldArchiveError) throw err;
    corrupt(`level.dat cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  // Entities and points of interest are region files too (1.14+, 1.17+): a torn one loses mobs or villagers' beds.
  const dims = (await fs.promises.readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() && /^DIM-?\d+$/.test(e.name)).map((e) => `${e.name}/`);
  const folders = ['', ...dims].flatMap((dim) => ['region', 'entities', 'poi'].map((kind) => `${dim}${kind}`));
  for (const rel of folders) {
    let files: string[];
    try {
      files = await fs.promises.readdir(path.join(dir, rel));
    } catch {
      continue;
    }
    for (const file of files.filter((f) => f.endsWith('.mca')).sort()) await checkRegionFile(path.join(dir, rel, file), `${rel}/${file}`);
  }
}

/**
 * Restores the zip at `location` in place of the world of `gameDir` (the server stopped): brought
 * to a temporary file, unpacked into a staging folder under the limits, checked, then swapped in.
 * Any refusal or failure leaves the world as it was and no temporary file behind.
 */
export async function restoreFromLocation(gameDir: string, location: ObjectLocation, maxArchiveBytes = Number.POSITIVE_INFINITY): Promise<void> {
  const tmp = await fetchToTemp(gameDir, location, maxArchiveBytes);
  const staging = stagingPath(gameDir);
  try {
    await unpackWorld(tmp, staging, { maxArchiveBytes });
    await checkWorld(staging);
    swapWorld(gameDir, staging);
  } finally {
    await fs.promises.rm(staging, { recursive: true, force: true });
    await fs.promises.rm(tmp, { force: true });
  }
}

/** Makes the renames in `dir` durable before the next step relies on them. */
function syncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Puts `stagingDir` in place of the game's world. Two renames, each atomic: a kill between them
 * leaves `world.previous` alone, which `recoverWorld` puts back; after the second, the new world
 * is in place and `world.previous` only waits to be deleted. Never a mix of both.
 */
export function swapWorld(gameDir: string, stagingDir: string): void {
  const world = path.join(gameDir, 'world');
  const previous = path.join(gameDir, 'world.previous');
  settlePrevious(gameDir);
  if (fs.existsSync(world)) fs.renameSync(world, previous);
  fs.renameSync(stagingDir, world);
  syncDir(gameDir);
  fs.rmSync(previous, { recursive: true, force: true });
}

/** Killed between the renames of a swap, the old world goes back; killed after, the new one stays. */
function settlePrevious(gameDir: string): void {
  const world = path.join(gameDir, 'world');
  const previous = path.join(gameDir, 'world.previous');
  if (!fs.existsSync(previous)) return;
  if (fs.existsSync(world)) {
    fs.rmSync(previous, { recursive: true, force: true });
    return;
  }
  fs.renameSync(previous, world);
  syncDir(gameDir);
}

/**
 * Finishes or undoes a swap a crash interrupted, and removes what a crashed snapshot or restore
 * left (staging folders, temporary zips). Run before anything reads or writes the world.
 */
export function recoverWorld(gameDir: string): void {
  if (!fs.existsSync(gameDir)) return;
  settlePrevious(gameDir);
  for (const name of fs.readdirSync(gameDir)) {
    const full = path.join(gameDir, name);
    if (name.startsWith(stagingPrefix) || (name.startsWith(tempZipPrefix) && name.endsWith('.zip'))) fs.rmSync(full, { recursive: true, force: true });
  }
}

/** Parses a location handed over IPC or on a command line. */
export function parseLocation(value: unknown): ObjectLocation {
  const v = (typeof value === 'string' ? JSON.parse(value) : value) as Partial<Record<string, unknown>> | null;
  if (v?.kind === 'file' && typeof v.path === 'string' && path.isAbsolute(v.path)) return { kind: 'file', path: v.path };
  if (v?.kind === 'url' && typeof v.url === 'string' && /^https?:\/\//.test(v.url) && (v.method === 'GET' || v.method === 'PUT')) {
    const headers = (v.headers ?? {}) as Record<string, unknown>;
    if (typeof headers !== 'object' || Object.values(headers).some((h) => typeof h !== 'string')) throw new Error('location headers must be strings');
    return { kind: 'url', url: v.url, method: v.method, headers: headers as Record<string, string> };
  }
  throw new Error('location is invalid: expected { kind: "file", path } with an absolute path or { kind: "url", url, method, headers }');
}

function transferFailed(what: string, err: unknown): WorldArchiveError {
  return new WorldArchiveError('transfer.failed', `${what}: ${err instanceof Error ? err.message : String(err)}`);
}

/**
 * Zips the world of `gameDir` to a temporary file in the game folder (same disk, so the move is
 * a rename), then moves it to the file location or PUTs it to the URL.
 */
export async function archiveToLocation(gameDir: string, location: ObjectLocation, options: { worldName?: string; onProgress?: (fraction: number) => void } = {}): Promise<ArchiveResult> {
  const { worldName = 'world', onProgress } = options;
  const tmp = tempZipPath(gameDir);
  // An upload is the zip's length again: zipping counts for 80 %, sending the rest.
  const zipShare = location.kind === 'file' ? 1 : 0.8;
  const progress = progressOf(onProgress);
  try {
    const result = await archiveWorld(path.join(gameDir, worldName), tmp, worldName, (f) => progress(f * zipShare));
    if (location.kind === 'file') await moveFile(tmp, location.path);
    else await putFile(tmp, result.sizeBytes, location, (sent) => progress(Math.min(zipShare + (1 - zipShare) * (sent / Math.max(result.sizeBytes, 1)), 0.99)));
    progress(1);
    return result;
  } finally {
    await fs.promises.rm(tmp, { force: true });
  }
}

async function moveFile(from: string, to: string): Promise<void> {
  await fs.promises.mkdir(path.dirname(to), { recursive: true });
  try {
    await fs.promises.rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    // Another disk: copied beside the target first, so no one ever sees half a zip under its name.
    const partial = `${to}.partial`;
    await fs.promises.copyFile(from, partial);
    await fs.promises.rename(partial, to);
  }
}

async function putFile(file: string, size: number, location: Extract<ObjectLocation, { kind: 'url' }>, onSent: (bytes: number) => void): Promise<void> {
  let sent = 0;
  const counted = fs.createReadStream(file).pipe(
    measure((chunk) => {
      sent += chunk.length;
      onSent(sent);
    }),
  );
  let res: Response;
  try {
    // S3 refuses a chunked upload to a presigned URL: the length is given, the body streamed.
    // `duplex` (needed for a streamed body) is missing from the DOM RequestInit type.
    const init: RequestInit & { duplex: 'half' } = {
      method: 'PUT',
      headers: { ...location.headers, 'content-length': String(size) },
      body: Readable.toWeb(counted) as ReadableStream<Uint8Array>,
      duplex: 'half',
    };
    res = await fetch(location.url, init);
  } catch (err) {
    throw transferFailed('upload failed', err);
  }
  await res.body?.cancel();
  if (!res.ok) throw new WorldArchiveError('transfer.failed', `upload answered ${res.status}`);
}

/**
 * Brings the zip of a location to a temporary file in the game folder (a copy, or a GET) and
 * returns its path; refuses one bigger than `maxArchiveBytes` before or while it comes.
 */
async function fetchToTemp(gameDir: string, location: ObjectLocation, maxArchiveBytes = Number.POSITIVE_INFINITY): Promise<string> {
  const tmp = tempZipPath(gameDir);
  const tooLarge = (size: number | string) => new WorldArchiveError('archive.too-large', `${size} bytes, at most ${maxArchiveBytes}`);
  try {
    if (location.kind === 'file') {
      const { size } = await fs.promises.stat(location.path).catch((err: unknown) => {
        throw transferFailed('the archive cannot be read', err);
      });
      if (size > maxArchiveBytes) throw tooLarge(size);
      await fs.promises.copyFile(location.path, tmp);
      return tmp;
    }
    let res: Response;
    try {
      res = await fetch(location.url, { method: 'GET', headers: location.headers });
    } catch (err) {
      throw transferFailed('download failed', err);
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new WorldArchiveError('transfer.failed', `download answered ${res.status}`);
    }
    const declared = Number(res.headers.get('content-length') ?? '0');
    if (declared > maxArchiveBytes) {
      await res.body.cancel();
      throw tooLarge(declared);
    }
    let bytes = 0;
    const bounded = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        callback(bytes > maxArchiveBytes ? tooLarge(`more than ${maxArchiveBytes}`) : null, chunk);
      },
    });
    try {
      await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), bounded, fs.createWriteStream(tmp, { flags: 'wx' }));
    } catch (err) {
      if (err instanceof WorldArchiveError) throw err;
      throw transferFailed('download failed', err);
    }
    return tmp;
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
}
