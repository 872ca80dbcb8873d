import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ObjectLocation } from '../driver.ts';
import { contents, declaring, levelDat, makeWorld, regionFile, renamed, worldEntries, zipOf } from '../../../tests/fixtures/worlds.ts';
import { archiveWorld, checkWorld, inspectArchive, maxUnpackedFor, recoverWorld, swapWorld, unpackWorld, WorldArchiveError } from './world-archive.ts';

const worldTool = fileURLToPath(new URL('./world-tool.ts', import.meta.url));

interface ToolAnswer {
  code: number;
  answer: Record<string, unknown>;
  progress: number[];
}

/** Runs the world tool as the drivers do: the location on stdin, progress lines then one answer. */
function runTool(command: 'archive' | 'restore', dir: string, location: ObjectLocation, ...rest: string[]): Promise<ToolAnswer> {
  return new Promise((resolve) => {
    const tool = execFile(process.execPath, [worldTool, command, dir, ...rest], (err, stdout) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      const lines = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      resolve({ code, answer: lines.pop() ?? {}, progress: lines.map((line) => line.progress as number) });
    });
    tool.stdin!.end(JSON.stringify(location));
  });
}

async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WorldArchiveError);
  expect((err as WorldArchiveError).code).toBe(code);
}

describe('world archives', () => {
  let tmp: string;
  let gameDir: string;
  let world: string;

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-world-'));
    gameDir = path.join(tmp, 'game');
    world = path.join(gameDir, 'world');
    makeWorld(world);
  });

  afterEach(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('zips a world Minecraft opens as-is and unpacks it back', async () => {
    const zipFile = path.join(tmp, 'w.zip');
    const progress: number[] = [];
    const result = await archiveWorld(world, zipFile, 'My World', (f) => progress.push(f));
    const bytes = fs.readFileSync(zipFile);
    // Rising by whole percents, and short of 100 % until the zip is whole.
    expect(progress.length).toBeGreaterThan(0);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(new Set(progress).size).toBe(progress.length);
    expect(Math.max(...progress)).toBeLessThanOrEqual(0.99);
    expect(result).toEqual({ sizeBytes: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex') });
    // Every entry under the root folder, level.dat right in it, and no lock.
    const names = bytes.toString('latin1');
    expect(names).toContain('My World/level.dat');
    expect(names).not.toContain('session.lock');
    expect(await inspectArchive(zipFile)).toBe('My World/');

    const staging = path.join(tmp, 'staging');
    await unpackWorld(zipFile, staging);
    const { ['session.lock']: _lock, ...expected } = contents(world);
    expect(contents(staging)).toEqual(expected);
    await checkWorld(staging);
  });

  it('finds level.dat at the root or under one top folder', async () => {
    const at = path.join(tmp, 'z.zip');
    fs.writeFileSync(at, await zipOf([{ name: 'level.dat', data: levelDat() }]));
    expect(await inspectArchive(at)).toBe('');
    fs.writeFileSync(at, await zipOf([...worldEntries('a'), ...worldEntries('b')]));
    await expectCode(inspectArchive(at), 'archive.no-level-dat');
    fs.writeFileSync(at, await zipOf([{ name: 'a/b/level.dat', data: levelDat() }]));
    await expectCode(inspectArchive(at), 'archive.no-level-dat');
  });

  it('refuses hostile or broken zips and leaves the world as it was', async () => {
    const before = contents(world);
    const cases: Array<[string, Buffer | string, string]> = [
      ['symlink', await zipOf([...worldEntries(), { name: 'world/link', data: '/etc/passwd', mode: 0o120777 }]), 'archive.link'],
      ['parent', renamed(await zipOf([...worldEntries(), { name: 'world/aa/evil', data: 'x' }]), 'aa/evil', '../evil'), 'archive.unsafe-path'],
      ['absolute', renamed(await zipOf([...worldEntries(), { name: 'xetc/evil', data: 'x' }]), 'xetc/evil', '/etc/evil'), 'archive.unsafe-path'],
      ['drive', renamed(await zipOf([...worldEntries(), { name: 'Cx/evil', data: 'x' }]), 'Cx/evil', 'C:/evil'), 'archive.unsafe-path'],
      ['backslash', renamed(await zipOf([...worldEntries(), { name: 'world/a/evil', data: 'x' }]), 'world/a/evil', 'world\\a\\evil'), 'archive.unsafe-path'],
      ['not a zip', 'this is not a zip file at all, only text', 'archive.not-zip'],
      ['no level.dat', await zipOf([{ name: 'world/region/r.0.0.mca', data: regionFile() }]), 'archive.no-level-dat'],
      // Declares 100 bytes, inflates to a megabyte: caught while unpacking.
      ['lying size', declaring(await zipOf([...worldEntries(), { name: 'world/big', data: Buffer.alloc(1024 * 1024) }]), 'world/big', 100), 'archive.unpacked-too-large'],
      ['bad level.dat', await zipOf([{ name: 'world/level.dat', data: 'not gzip' }]), 'world.corrupt'],
      [
        'bad region',
        await zipOf([
          { name: 'world/level.dat', data: levelDat() },
          { name: 'world/region/r.0.0.mca', data: regionFile().subarray(0, 8192) },
        ]),
        'world.corrupt',
      ],
    ];
    for (const [what, bytes, code] of cases) {
      const zipFile = path.join(tmp, `${what}.zip`);
      fs.writeFileSync(zipFile, bytes);
      const { code: exit, answer } = await runTool('restore', gameDir, { kind: 'file', path: zipFile });
      expect({ what, exit, error: answer.error }).toEqual({ what, exit: 1, error: code });
      expect(contents(world)).toEqual(before);
      // No staging folder or temporary zip left behind.
      expect(fs.readdirSync(gameDir)).toEqual(['world']);
    }
    const big = path.join(tmp, 'big.zip');
    fs.writeFileSync(big, await zipOf(worldEntries()));
    const { answer } = await runTool('restore', gameDir, { kind: 'file', path: big }, '100');
    expect(answer.error).toBe('archive.too-large');
    expect(contents(world)).toEqual(before);
  }, 120_000);

  it('enforces the entry and size limits', async () => {
    const zipFile = path.join(tmp, 'w.zip');
    fs.writeFileSync(zipFile, await zipOf([...worldEntries(), { name: 'world/a', data: 'a' }, { name: 'world/b', data: 'b' }]));
    await expectCode(inspectArchive(zipFile, { maxEntries: 3 }), 'archive.too-many-entries');
    await expectCode(inspectArchive(zipFile, { maxUnpackedBytes: 1000 }), 'archive.unpacked-too-large');
    await expectCode(inspectArchive(zipFile, { maxArchiveBytes: 100 }), 'archive.too-large');
    // The sizes declared pass the limit; the bytes written do not.
    fs.writeFileSync(zipFile, declaring(await zipOf([...worldEntries(), { name: 'world/big', data: Buffer.alloc(100_000) }]), 'world/big', 1000));
    expect(await inspectArchive(zipFile, { maxUnpackedBytes: 50_000 })).toBe('world/');
    await expectCode(unpackWorld(zipFile, path.join(tmp, 'staging'), { maxUnpackedBytes: 50_000 }), 'archive.unpacked-too-large');
    // Entries that would write over one another: a file where a folder is, the same name twice.
    fs.writeFileSync(zipFile, await zipOf([...worldEntries(), { name: 'world/a', data: 'a' }, { name: 'world/a/b', data: 'b' }]));
    await expectCode(unpackWorld(zipFile, path.join(tmp, 'staging-2')), 'archive.unsafe-path');
    fs.writeFileSync(zipFile, await zipOf([...worldEntries(), { name: 'world/a', data: 'a' }, { name: 'world/a', data: 'b' }]));
    await expectCode(unpackWorld(zipFile, path.join(tmp, 'staging-3')), 'archive.unsafe-path');
  });

  it('refuses a zip bomb by its compression ratio, which no world has, and bounds the unpacked size by the package', async () => {
    const zipFile = path.join(tmp, 'bomb.zip');
    // 200 MB of zeros deflate to about 200 KB: a thousand to one, as bombs do.
    fs.writeFileSync(zipFile, await zipOf([...worldEntries(), { name: 'world/region/r.9.9.mca', data: Buffer.alloc(200 * 1024 * 1024) }]));
    expect(fs.statSync(zipFile).size).toBeLessThan(1024 * 1024);
    await expectCode(inspectArchive(zipFile), 'archive.ratio');
    await expectCode(inspectArchive(zipFile, { maxArchiveBytes: 1024 ** 3 }), 'archive.ratio');
    await expectCode(unpackWorld(zipFile, path.join(tmp, 'staging')), 'archive.ratio');
    expect(fs.existsSync(path.join(tmp, 'staging'))).toBe(false);
    const { answer } = await runTool('restore', gameDir, { kind: 'file', path: zipFile }, String(1024 ** 3));
    expect(answer.error).toBe('archive.ratio');
    expect(fs.readdirSync(gameDir)).toEqual(['world']);

    // A world that compresses as worlds do (random bytes, as chunks are): accepted, under any package it fits.
    fs.writeFileSync(zipFile, await zipOf([...worldEntries(), { name: 'world/region/r.9.9.mca', data: crypto.randomBytes(2 * 1024 * 1024) }]));
    expect(await inspectArchive(zipFile, { maxArchiveBytes: fs.statSync(zipFile).size })).toBe('world/');
    // The unpacked bound follows the package's size: the same zip declaring more than it allows is refused.
    const size = fs.statSync(zipFile).size;
    fs.writeFileSync(zipFile, declaring(fs.readFileSync(zipFile), 'world/region/r.9.9.mca', maxUnpackedFor(size) + 1));
    await expectCode(inspectArchive(zipFile, { maxArchiveBytes: size }), 'archive.unpacked-too-large');
  }, 60_000);

  it('restores through the world tool: a file and a presigned URL', async () => {
    const zipFile = path.join(tmp, 'backups', 'one.zip');
    const archived = await runTool('archive', gameDir, { kind: 'file', path: zipFile });
    expect(archived.code).toBe(0);
    expect(archived.answer.sizeBytes).toBe(fs.statSync(zipFile).size);
    expect(archived.progress.at(-1)).toBe(1);
    fs.writeFileSync(path.join(world, 'marker.txt'), 'changed');
    expect(await runTool('restore', gameDir, { kind: 'file', path: zipFile })).toEqual({ code: 0, answer: { ok: true }, progress: [] });
    expect(fs.readFileSync(path.join(world, 'marker.txt'), 'utf8')).toBe('original');
    expect(fs.readdirSync(gameDir)).toEqual(['world']);

    // An object store: a PUT must carry its length (S3 refuses chunked uploads), a GET gives it back.
    const stored = new Map<string, Buffer>();
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.headers['x-token'] !== 'secret') return void res.writeHead(403).end();
        if (req.method === 'PUT') {
          if (!req.headers['content-length'] || req.headers['transfer-encoding']) return void res.writeHead(411).end();
          stored.set(req.url!, Buffer.concat(chunks));
          return void res.writeHead(200).end();
        }
        const body = stored.get(req.url!);
        if (!body) return void res.writeHead(404).end();
        res.writeHead(200, { 'content-length': body.length }).end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/w.zip`;
      const put: ObjectLocation = { kind: 'url', url, method: 'PUT', headers: { 'x-token': 'secret' } };
      const up = await runTool('archive', gameDir, put);
      expect(up.code).toBe(0);
      expect(stored.get('/w.zip')?.length).toBe(up.answer.sizeBytes);
      expect(crypto.createHash('sha256').update(stored.get('/w.zip')!).digest('hex')).toBe(up.answer.sha256);
      fs.writeFileSync(path.join(world, 'marker.txt'), 'changed again');
      const get: ObjectLocation = { kind: 'url', url, method: 'GET', headers: { 'x-token': 'secret' } };
      expect((await runTool('restore', gameDir, get)).answer).toEqual({ ok: true });
      expect(fs.readFileSync(path.join(world, 'marker.txt'), 'utf8')).toBe('original');
      // A refused download is a failed transfer, the world untouched.
      const denied = await runTool('restore', gameDir, { ...get, headers: {} });
      expect(denied).toMatchObject({ code: 1, answer: { error: 'transfer.failed' } });
      expect(fs.readdirSync(gameDir)).toEqual(['world']);
    } finally {
      server.close();
    }
  }, 60_000);

  it('recovers from a crash at any point of a swap: the old world or the new, never a mix', async () => {
    const staged = (marker: string) => {
      const dir = path.join(gameDir, 'world.staging-abc');
      makeWorld(dir, marker);
      return dir;
    };
    const marker = () => fs.readFileSync(path.join(world, 'marker.txt'), 'utf8');

    // Killed while unpacking: the staging folder and a temporary zip are left.
    staged('new');
    fs.writeFileSync(path.join(gameDir, '.world-backup-123.zip'), 'partial');
    recoverWorld(gameDir);
    expect([fs.readdirSync(gameDir), marker()]).toEqual([['world'], 'original']);

    // Killed between the two renames: the old world comes back.
    const s1 = staged('new');
    fs.renameSync(world, path.join(gameDir, 'world.previous'));
    recoverWorld(gameDir);
    expect([fs.readdirSync(gameDir), marker()]).toEqual([['world'], 'original']);
    expect(fs.existsSync(s1)).toBe(false);

    // Killed after the second rename, before or while deleting the old world: the new one stays.
    const s2 = staged('new');
    fs.renameSync(world, path.join(gameDir, 'world.previous'));
    fs.renameSync(s2, world);
    fs.rmSync(path.join(gameDir, 'world.previous', 'region'), { recursive: true });
    recoverWorld(gameDir);
    expect([fs.readdirSync(gameDir), marker()]).toEqual([['world'], 'new']);

    // A whole swap, and a first world (none before).
    swapWorld(gameDir, staged('newer'));
    expect([fs.readdirSync(gameDir), marker()]).toEqual([['world'], 'newer']);
    fs.rmSync(world, { recursive: true });
    swapWorld(gameDir, staged('first'));
    expect([fs.readdirSync(gameDir), marker()]).toEqual([['world'], 'first']);
  });

  it('checks level.dat and the region headers', async () => {
    await checkWorld(world);
    const region = path.join(world, 'region', 'r.0.0.mca');
    const broken = regionFile();
    broken.writeUInt32BE((3 << 8) | 1, 0);
    fs.writeFileSync(region, broken);
    await expectCode(checkWorld(world), 'world.corrupt');
    fs.writeFileSync(region, Buffer.alloc(5000));
    await expectCode(checkWorld(world), 'world.corrupt');
    fs.writeFileSync(region, regionFile());
    fs.writeFileSync(path.join(world, 'DIM-1', 'region', 'r.0.0.mca'), Buffer.alloc(4096));
    await expectCode(checkWorld(world), 'world.corrupt');
    fs.rmSync(path.join(world, 'DIM-1'), { recursive: true });
    // Entities and points of interest are region files too, in every dimension.
    for (const rel of ['entities', 'poi', path.join('DIM1', 'entities')]) {
      fs.mkdirSync(path.join(world, rel), { recursive: true });
      fs.writeFileSync(path.join(world, rel, 'r.0.0.mca'), regionFile());
      await checkWorld(world);
      fs.writeFileSync(path.join(world, rel, 'r.0.0.mca'), Buffer.alloc(4096));
      await expectCode(checkWorld(world), 'world.corrupt');
      fs.rmSync(path.join(world, rel, 'r.0.0.mca'));
    }
    fs.writeFileSync(path.join(world, 'level.dat'), zlib.gzipSync('garbage'));
    await expectCode(checkWorld(world), 'world.corrupt');
  });
});
