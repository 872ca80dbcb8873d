import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ObjectLocation } from '../driver.ts';
import { jsonLineReader } from '../lines.ts';
import { plainJs } from '../plain-js.ts';
import { WorldArchiveError, type WorldArchiveCode } from './world-archive.ts';

const worldTool = fileURLToPath(new URL('./world-tool.ts', import.meta.url));
/**
 * The tool as plain JavaScript (plain-js.ts), stripped once per process: a run then loads no
 * TypeScript support, a good share of a snapshot's time, which every backup pays.
 */
let worldToolJs: string | undefined;
const stderrTailBytes = 2000;

export interface WorldToolRun {
  cwd: string;
  /** Names the game in errors. */
  label: string;
  /** Where the archive goes or comes from; handed over on stdin, never on the command line. */
  location: ObjectLocation;
  onSpawn?: (tool: ChildProcess) => void;
  onProgress?: (fraction: number) => void;
}

/**
 * Runs the world tool (world-tool.ts) as a child process in `cwd` and reads its answer: resolves
 * with its last JSON line, rejects with the tool's WorldArchiveError (its code) when it refused, or
 * with an Error naming the game when it failed otherwise or was killed. Progress lines before the
 * last go to `onProgress`.
 */
export function runWorldTool(args: string[], options: WorldToolRun): Promise<Record<string, unknown>> {
  // It streams: a small heap bounds what a hostile zip could make it take.
  worldToolJs ??= plainJs(worldTool);
  const tool = spawn(process.execPath, ['--max-old-space-size=256', worldToolJs, ...args], { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  options.onSpawn?.(tool);
  // A tool killed before it read its input closes the pipe: that is told by its exit, not here.
  tool.stdin.on('error', () => {});
  tool.stdin.end(JSON.stringify(options.location));
  let answer: Record<string, unknown> | undefined;
  let stderrTail = '';
  const lines = jsonLineReader((value) => {
    answer = value;
    if (typeof value.progress === 'number') options.onProgress?.(value.progress);
  });
  tool.stdout.on('data', (chunk: Buffer) => lines.push(chunk));
  tool.stderr.on('data', (chunk: Buffer) => (stderrTail = (stderrTail + chunk.toString('utf8')).slice(-stderrTailBytes)));
  return new Promise((resolve, reject) => {
    tool.once('error', (err) => reject(new Error(`cannot run the world tool for ${options.label}: ${err.message}`)));
    tool.once('close', (code, signal) => {
      lines.end();
      if (code === 0 && answer) return resolve(answer);
      if (answer && typeof answer.error === 'string' && answer.error !== 'failed') {
        return reject(new WorldArchiveError(answer.error as WorldArchiveCode, String(answer.detail ?? '')));
      }
      const why = answer?.detail ?? (signal ? `killed by signal ${signal}` : `exited with code ${code}: ${stderrTail.trim()}`);
      reject(new Error(`world ${args[0]} of ${options.label} failed: ${String(why)}`));
    });
  });
}
