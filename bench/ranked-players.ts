import type { Bot } from 'mineflayer';
import type { BenchServer } from './server.ts';
import { join } from '../tests/fixtures/minecraft.ts';

/** The match servers' version (the seeded Duel 1.8.8). */
const VERSION = '1.8.8';

interface Me {
  match: { id: string; status: string; address: string | null; createdAt: string } | null;
}

/** Polls `read` every `everyMs` until `done` takes its answer (the page is told by its stream; a client of the bench asks). */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number, what: string, everyMs = 50): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} not within ${ms} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A player's client: reads its match until it has an address, then joins there; answers when it spawned. */
export async function playerJoins(server: BenchServer, user: string, mcName: string, bots: Bot[], everyMs = 50): Promise<{ live: number; joined: number; matchId: string; bot: Bot }> {
  const me = await until(
    () => server.call<Me>(user, 'GET', '/v1/ranked/me'),
    (m) => m.match?.status === 'LIVE' && !!m.match.address,
    240_000,
    `${user}'s match LIVE`,
    everyMs,
  );
  const live = Date.now();
  const address = me.match!.address!;
  const port = Number(address.slice(address.lastIndexOf(':') + 1));
  const result = await join(port, mcName, VERSION, 120_000, address.slice(0, address.lastIndexOf(':')));
  if (!result.joined) throw new Error(`${mcName} could not join the match server: ${result.reason}`);
  bots.push(result.bot);
  return { live, joined: Date.now(), matchId: me.match!.id, bot: result.bot };
}
