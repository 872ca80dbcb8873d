import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { games } from '../../db/schema/games.ts';
import type { Target } from '../../../runtime/gateway/gateway.ts';
import { wakeAnswers } from '../../../contract/games.ts';
import { STATUS_CHANNEL } from './world.ts';
import type { GatewaySource } from './gateway.ts';
import type { WakeAnswer } from './wakes.ts';

/** `host:port` as the reconciler writes it (the host may be an IPv6 address: the port is after the last colon). */
function parseTarget(text: string | null): Target | null {
  const at = text?.lastIndexOf(':') ?? -1;
  if (!text || at <= 0) return null;
  const port = Number(text.slice(at + 1));
  return Number.isInteger(port) && port > 0 && port < 65536 ? { host: text.slice(0, at).replace(/^\[|\]$/g, ''), port } : null;
}

/**
 * A gateway process's source (docs/architecture.md, "The game gateway"): where each RUNNING game's
 * server is, from its row's `gateway_target`, all loaded at start and each game read again when
 * the database says its status changed (every replica's status writes NOTIFY it at commit),
 * everything again after a lost LISTEN connection; a wake is asked of the API over its internal
 * call, with the INTERNAL_TOKEN secret. Nothing here is a replica's alone: any number of them run.
 */
export class ProcessSource implements GatewaySource {
  private readonly database: Database;
  private readonly api: { url: string; token: string };
  private targets = new Map<string, Target>();
  private unlisten: (() => Promise<void>) | undefined;

  constructor(database: Database, api: { url: string; token: string }) {
    this.database = database;
    this.api = api;
  }

  async start(): Promise<void> {
    this.unlisten = await this.database.listen(STATUS_CHANNEL, (id) => void this.readOne(id).catch(() => {}), { onReconnect: () => this.readAll() });
    await this.readAll();
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
  }

  async target(gameId: string, fresh = false): Promise<Target | null> {
    if (fresh) await this.readOne(gameId);
    return this.targets.get(gameId) ?? null;
  }

  async wake(gameId: string, address: string | undefined, first: boolean): Promise<WakeAnswer> {
    const response = await fetch(`${this.api.url}/v1/internal/game/wake/${encodeURIComponent(gameId)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-token': this.api.token },
      body: JSON.stringify({ ...(address ? { address: address.slice(0, 64) } : {}), first }),
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) throw new Error(`the API answered the wake of ${gameId} with ${response.status}`);
    const { result } = (await response.json()) as { result: WakeAnswer };
    if (!wakeAnswers.includes(result)) throw new Error(`the API answered the wake of ${gameId} with "${String(result)}"`);
    return result;
  }

  private async readAll(): Promise<void> {
    const rows = await this.database.db
      .select({ id: games.id, target: games.gatewayTarget })
      .from(games)
      .where(and(eq(games.status, 'RUNNING'), isNull(games.deletedAt)));
    const targets = new Map<string, Target>();
    for (const row of rows) {
      const target = parseTarget(row.target);
      if (target) targets.set(row.id, target);
    }
    this.targets = targets;
  }

  private async readOne(gameId: string): Promise<void> {
    const [row] = await this.database.db.select({ status: games.status, target: games.gatewayTarget, deletedAt: games.deletedAt }).from(games).where(eq(games.id, gameId));
    const target = row && row.status === 'RUNNING' && !row.deletedAt ? parseTarget(row.target) : null;
    if (target) this.targets.set(gameId, target);
    else this.targets.delete(gameId);
  }
}
