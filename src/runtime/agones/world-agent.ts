/**
 * The world agent: a small HTTP server beside a game's world volume on Kubernetes, so world bytes
 * go between the volume and the object store without passing through the API process.
 *
 *   POST /backup  { location }                   → { progress } lines, then { sizeBytes, sha256 }
 *   POST /restore { location, maxArchiveBytes }  → { ok: true }
 *   GET  /healthz                                → { ok: true } (no token: it tells nothing)
 *
 * Settings: WORLD_AGENT_PORT (8765), WORLD_AGENT_TOKEN (required: the bearer every call but
 * /healthz carries), WORLD_DIR (/data: the volume, holding `world/`), WORLD_AGENT_READ_ONLY=true
 * beside a running server, whose world must not be swapped under it. See agent-protocol.ts for
 * the answers. One backup or restore at a time.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { archiveToLocation, parseLocation, recoverWorld, restoreFromLocation, WorldArchiveError } from '../minecraft/world-archive.ts';
import { agentDefaultPort, agentErrors, heartbeatMs, type AgentErrorCode } from './agent-protocol.ts';

const maxBodyBytes = 64 * 1024;

class AgentError extends Error {
  readonly code: AgentErrorCode;
  readonly status: number;
  constructor(code: AgentErrorCode, status: number, message: string) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

function settings(env: NodeJS.ProcessEnv) {
  const token = env.WORLD_AGENT_TOKEN ?? '';
  if (!token) throw new Error('WORLD_AGENT_TOKEN is required');
  const port = Number(env.WORLD_AGENT_PORT ?? agentDefaultPort);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`WORLD_AGENT_PORT="${env.WORLD_AGENT_PORT}" is invalid: expected a port number`);
  return { token, port, worldDir: path.resolve(env.WORLD_DIR ?? '/data'), readOnly: env.WORLD_AGENT_READ_ONLY === 'true' };
}

function sameToken(given: string, expected: string): boolean {
  const hash = (s: string) => crypto.createHash('sha256').update(s).digest();
  return crypto.timingSafeEqual(hash(given), hash(expected));
}

async function readBody(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) throw new AgentError(agentErrors.badRequest, 413, `the body is over ${maxBodyBytes} bytes`);
    chunks.push(chunk);
  }
  try {
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('not an object');
    return body as Record<string, unknown>;
  } catch (err) {
    throw new AgentError(agentErrors.badRequest, 400, `the body is not a JSON object: ${(err as Error).message}`);
  }
}

function answerOf(err: unknown): { error: string; detail: string } {
  if (err instanceof WorldArchiveError) return { error: err.code, detail: err.detail };
  if (err instanceof AgentError) return { error: err.code, detail: err.message };
  return { error: agentErrors.failed, detail: err instanceof Error ? err.message : String(err) };
}

function startWorldAgent(env: NodeJS.ProcessEnv): http.Server {
  const { token, port, worldDir, readOnly } = settings(env);
  let busy = false;

  /** Checks done before answering 200, so a refused call gets a status a caller can read. */
  async function accept(req: http.IncomingMessage, operation: string): Promise<(onProgress: (fraction: number) => void) => Promise<object>> {
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ') || !sameToken(auth.slice(7), token)) throw new AgentError(agentErrors.unauthorized, 401, 'the bearer token is missing or wrong');
    const body = await readBody(req);
    let location;
    try {
      location = parseLocation(body.location);
    } catch (err) {
      throw new AgentError(agentErrors.badRequest, 400, (err as Error).message);
    }
    if (operation === 'backup') {
      return async (onProgress) => {
        if (!fs.existsSync(path.join(worldDir, 'world', 'level.dat'))) throw new AgentError(agentErrors.noWorld, 409, `${worldDir} holds no world yet`);
        return archiveToLocation(worldDir, location, { onProgress });
      };
    }
    const max = body.maxArchiveBytes;
    if (typeof max !== 'number' || !(max > 0)) throw new AgentError(agentErrors.badRequest, 400, 'maxArchiveBytes must be a positive number');
    if (readOnly) throw new AgentError(agentErrors.readOnly, 409, "this world is a running server's: stop it before a restore");
    return async () => {
      await restoreFromLocation(worldDir, location, max);
      return { ok: true };
    };
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://agent');
    const json = (status: number, body: object) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && url.pathname === '/healthz') return json(200, { ok: true });
    const operation = url.pathname.slice(1);
    if (req.method !== 'POST' || (operation !== 'backup' && operation !== 'restore')) return json(404, { error: agentErrors.badRequest, detail: `${req.method} ${url.pathname} is not known` });
    void (async () => {
      let work: (onProgress: (fraction: number) => void) => Promise<object>;
      try {
        work = await accept(req, operation);
        if (busy) throw new AgentError(agentErrors.busy, 409, 'another backup or restore of this world is under way');
      } catch (err) {
        return json(err instanceof AgentError ? err.status : 500, answerOf(err));
      }
      busy = true;
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const line = (body: object) => res.write(`${JSON.stringify(body)}\n`);
      const heartbeat = setInterval(() => res.write('\n'), heartbeatMs);
      let answer: object;
      try {
        // A backup or restore killed earlier may have left a swap half done or temporary files.
        recoverWorld(worldDir);
        answer = await work((progress) => line({ progress }));
      } catch (err) {
        answer = answerOf(err);
      } finally {
        clearInterval(heartbeat);
        busy = false;
      }
      res.end(`${JSON.stringify(answer)}\n`);
    })();
  });
  server.listen(port);
  return server;
}

/** One line, which the pod's status shows as the reason it ended. */
function fail(err: unknown): never {
  process.stderr.write(`world agent: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

try {
  startWorldAgent(process.env).on('error', fail);
} catch (err) {
  fail(err);
}
// Kubernetes stops a pod with SIGTERM: ending at once loses nothing, a swap being crash-safe and
// what a cut backup or restore leaves being removed by the next one.
process.on('SIGTERM', () => process.exit(0));
