import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WorldArchiveError, type WorldArchiveCode } from './world-archive.ts';

const worldTool = fileURLToPath(new URL('./world-tool.ts', import.meta.url));
const stderrTailBytes = 2000;

/**
 * Runs the world tool (world-tool.ts) as a child process in `cwd` and reads its one-line answer:
 * resolves with it, rejects with the tool's WorldArchiveError (its code) when it refused, or with
 * an Error naming `label` (the game) when it failed otherwise or was killed.
 */
export function runWorldTool(args: string[], options: { cwd: string; label: string; onSpawn?: (tool: ChildProcess) => void }): Promise<Record<string, unknown>> {
  // It streams: a small heap bounds what a hostile zip could make it take.
  const tool = spawn(process.execPath, ['--max-old-space-size=256', worldTool, ...args], { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  options.onSpawn?.(tool);
  let stdout = '';
  let stderrTail = '';
  tool.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  tool.stderr.on('data', (chunk: Buffer) => (stderrTail = (stderrTail + chunk.toString('utf8')).slice(-stderrTailBytes)));
  return new Promise((resolve, reject) => {
    tool.once('error', (err) => reject(new Error(`cannot run the world tool for ${options.label}: ${err.message}`)));
    tool.once('close', (code, signal) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      let answer: Record<string, unknown> | undefined;
      try {
        answer = JSON.parse(line) as Record<string, unknown>;
      } catch {
        answer = undefined;
      }
      if (code === 0 && answer) return resolve(answer);
      if (answer && typeof answer.error === 'string' && answer.error !== 'failed') {
        return reject(new WorldArchiveError(answer.error as WorldArchiveCode, String(answer.detail ?? '')));
      }
      const why = answer?.detail ?? (signal ? `killed by signal ${signal}` : `exited with code ${code}: ${stderrTail.trim()}`);
      reject(new Error(`world ${args[0]} of ${options.label} failed: ${String(why)}`));
    });
  });
}
