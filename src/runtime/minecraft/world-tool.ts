/**
 * Snapshots and restores of a stopped server's world, as a child process of the API, so world
 * bytes never pass through the API process:
 *
 *   node world-tool.ts archive <gameDir> <location-json>
 *   node world-tool.ts restore <gameDir> <location-json> [maxArchiveBytes]
 *
 * Prints one JSON line on stdout: `{ sizeBytes, sha256 }` or `{ ok: true }`, or on failure
 * `{ error, detail }` with exit code 1, the world untouched and no temporary file left.
 */
import fs from 'node:fs';
import path from 'node:path';
import { archiveToLocation, checkWorld, fetchToTemp, parseLocation, recoverWorld, stagingPath, swapWorld, unpackWorld, WorldArchiveError } from './world-archive.ts';

async function restore(gameDir: string, locationJson: string, maxArchiveBytes: number): Promise<void> {
  const tmp = await fetchToTemp(gameDir, parseLocation(locationJson), maxArchiveBytes);
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

async function main(argv: string[]): Promise<object> {
  const [command, gameDirArg, locationJson, maxArg] = argv;
  if ((command !== 'archive' && command !== 'restore') || !gameDirArg || !locationJson) {
    throw new Error('usage: node world-tool.ts archive|restore <gameDir> <location-json> [maxArchiveBytes]');
  }
  const gameDir = path.resolve(gameDirArg);
  // A snapshot or restore killed earlier may have left a swap half done or temporary files.
  recoverWorld(gameDir);
  if (command === 'archive') return archiveToLocation(gameDir, parseLocation(locationJson));
  const maxArchiveBytes = maxArg === undefined ? Number.POSITIVE_INFINITY : Number(maxArg);
  if (!(maxArchiveBytes > 0)) throw new Error(`maxArchiveBytes "${maxArg}" is invalid: expected a positive number`);
  await restore(gameDir, locationJson, maxArchiveBytes);
  return { ok: true };
}

main(process.argv.slice(2)).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  },
  (err: unknown) => {
    const answer = err instanceof WorldArchiveError ? { error: err.code, detail: err.detail } : { error: 'failed', detail: err instanceof Error ? err.message : String(err) };
    process.stdout.write(`${JSON.stringify(answer)}\n`);
    process.exitCode = 1;
  },
);
