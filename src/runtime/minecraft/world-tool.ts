/**
 * Snapshots and restores of a stopped server's world, as a child process of the API, so world
 * bytes never pass through the API process:
 *
 *   node world-tool.ts archive <gameDir>
 *   node world-tool.ts restore <gameDir> [maxArchiveBytes]
 *
 * The location (a file, or a presigned URL) comes as JSON on stdin: on the command line, any user
 * of the machine could read a URL that grants the game's archive. Prints `{ progress }` lines
 * while it archives, then one last JSON line: `{ sizeBytes, sha256 }` or `{ ok: true }`, or on
 * failure `{ error, detail }` with exit code 1, the world untouched and no temporary file left.
 */
import { text } from 'node:stream/consumers';
import path from 'node:path';
import { archiveToLocation, parseLocation, recoverWorld, restoreFromLocation, WorldArchiveError } from './world-archive.ts';

const say = (answer: object) => process.stdout.write(`${JSON.stringify(answer)}\n`);

async function main(argv: string[]): Promise<object> {
  const [command, gameDirArg, maxArg] = argv;
  if ((command !== 'archive' && command !== 'restore') || !gameDirArg) {
    throw new Error('usage: node world-tool.ts archive|restore <gameDir> [maxArchiveBytes] < location.json');
  }
  const gameDir = path.resolve(gameDirArg);
  const location = parseLocation(await text(process.stdin));
  // A snapshot or restore killed earlier may have left a swap half done or temporary files.
  recoverWorld(gameDir);
  if (command === 'archive') return archiveToLocation(gameDir, location, { onProgress: (progress) => say({ progress }) });
  const maxArchiveBytes = maxArg === undefined ? Number.POSITIVE_INFINITY : Number(maxArg);
  if (!(maxArchiveBytes > 0)) throw new Error(`maxArchiveBytes "${maxArg}" is invalid: expected a positive number`);
  await restoreFromLocation(gameDir, location, maxArchiveBytes);
  return { ok: true };
}

main(process.argv.slice(2)).then(say, (err: unknown) => {
  say(err instanceof WorldArchiveError ? { error: err.code, detail: err.detail } : { error: 'failed', detail: err instanceof Error ? err.message : String(err) });
  process.exitCode = 1;
});
