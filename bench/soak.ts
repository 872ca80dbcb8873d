import type { BenchServer } from './server.ts';
import { freeOffer } from './whitelist.ts';

/**
 * The soak: mixed player traffic against one server for a while (10 minutes unless SOAK_MINUTES
 * says otherwise), on loopback only, bounded in time, stopping by itself. Social players read their
 * pages, befriend each other, answer requests, unfriend, and make and delete friend groups; game
 * owners buy a game and start and stop it over and over, on real servers (the local driver), so
 * ports and processes come and go. Every answer that is not the one the step expects counts as an
 * error. Players also buy credit packs through the sandbox's card step (some cards declined). Memory is sampled after a full garbage collection at the start, each minute and the end.
 */
export interface SoakFigures {
  minutes: number;
  requests: number;
  errors: number;
  /** The first few errors, to read. */
  errorSamples: string[];
  gameCycles: number;
  rssStartMb: number;
  rssEndMb: number;
  rssSamplesMb: number[];
}

const SOCIAL_PLAYERS = 16;
const GAME_OWNERS = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function soakBench(server: BenchServer, minutes = Number(process.env.SOAK_MINUTES ?? 10)): Promise<SoakFigures> {
  let requests = 0;
  let errors = 0;
  let gameCycles = 0;
  const errorSamples: string[] = [];
  const tokens = new Map<string, string>();
  const tokenOf = (user: string) => {
    if (!tokens.has(user)) tokens.set(user, server.token(user));
    return tokens.get(user)!;
  };

  /** One call; an answer outside `expect` is an error. Answers the JSON body, or null. */
  async function call<T>(user: string, method: string, url: string, body?: unknown, expect: number[] = [200, 201, 204]): Promise<T | null> {
    requests++;
    try {
      const headers: Record<string, string> = { authorization: `Bearer ${tokenOf(user)}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (method !== 'GET') headers['idempotency-key'] = crypto.randomUUID();
      const res = await fetch(`${server.origin}${url}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      const text = await res.text();
      if (!expect.includes(res.status)) {
        errors++;
        if (errorSamples.length < 10) errorSamples.push(`${method} ${url}: ${res.status} ${text.slice(0, 200)}`);
        return null;
      }
      return (text ? JSON.parse(text) : null) as T;
    } catch (err) {
      errors++;
      if (errorSamples.length < 10) errorSamples.push(`${method} ${url}: ${(err as Error).message}`);
      return null;
    }
  }

  const offer = await freeOffer(server);
  const players = Array.from({ length: SOCIAL_PLAYERS }, (_, i) => `soak_player_${i}`);
  const ids = new Map<string, string>();
  for (const p of players) ids.set(p, (await call<{ id: string }>(p, 'GET', '/v1/user'))!.id);

  const until = Date.now() + minutes * 60_000;
  const running = () => Date.now() < until;

  async function reads(p: string) {
    for (const url of ['/v1/user', '/v1/definition/game/list', '/v1/user/notifications/unread', '/v1/friend', '/v1/friend/request', '/v1/game', '/v1/purchase/transactions', '/v1/friend/group']) {
      await call(p, 'GET', url);
    }
  }

  /** Befriends the next player, who accepts; a group with them and a name in it; then all undone. */
  async function socialRound(i: number) {
    const me = players[i]!;
    const other = players[(i + 1) % players.length]!;
    // The other side may be mid-round with us: a request may already be there, or a friendship.
    await call(me, 'POST', '/v1/friend', { userId: ids.get(other) }, [200, 201, 409]);
    const pending = await call<{ data: Array<{ id: string; direction: 'INCOMING' | 'OUTGOING' }> }>(other, 'GET', '/v1/friend/request');
    for (const r of pending?.data.filter((r) => r.direction === 'INCOMING') ?? []) {
      await call(other, 'PUT', '/v1/friend/request', { requestId: r.id, accept: true }, [200, 204, 404, 409]);
    }
    const group = await call<{ id: string }>(me, 'POST', '/v1/friend/group', { name: `Soak ${i} ${Date.now() % 100_000}` }, [201, 409]);
    if (group) {
      await call(me, 'POST', `/v1/friend/group/${group.id}/member`, { userId: ids.get(other) }, [200, 201, 204, 404, 409]);
      await call(me, 'POST', `/v1/friend/group/${group.id}/member/pseudo`, { mcName: `Soaker_${i}` }, [200, 201, 204, 409]);
      await call(me, 'GET', `/v1/friend/group/${group.id}`);
      await call(me, 'DELETE', `/v1/friend/group/${group.id}`);
    }
    await call(me, 'DELETE', `/v1/friend/${ids.get(other)}`, undefined, [200, 204, 404]);
  }

  /** Buys the cheapest pack through the sandbox's card step; every fifth card is declined. */
  let purchases = 0;
  async function buyPack(p: string) {
    const packs = await call<{ data: Array<{ id: string }> }>(p, 'GET', '/v1/pricing');
    const pack = packs?.data[0];
    if (!pack) return;
    const checkout = await call<{ paymentId: string }>(p, 'POST', '/v1/payment/stripe', { pricingId: pack.id }, [201]);
    if (!checkout) return;
    const declined = ++purchases % 5 === 0;
    await call(p, 'POST', `/v1/payment/sandbox/${checkout.paymentId}/confirm`, { cardNumber: declined ? '4000000000000002' : '4242424242424242' }, declined ? [402] : [200]);
    await call(p, 'GET', '/v1/purchase/invoices');
  }

  async function socialPlayer(i: number) {
    for (let round = 0; running(); round++) {
      await reads(players[i]!);
      await socialRound(i);
      if (round % 4 === 0) await buyPack(players[i]!);
      await sleep(20);
    }
  }

  async function waitFor(owner: string, gameId: string, status: string) {
    for (const deadline = Date.now() + 180_000; Date.now() < deadline;) {
      const game = await call<{ status: string }>(owner, 'GET', `/v1/game/${gameId}`);
      if (game?.status === status) return true;
      if (game?.status === 'CRASHED') break;
      await sleep(200);
    }
    errors++;
    if (errorSamples.length < 10) errorSamples.push(`game ${gameId} never ${status}`);
    return false;
  }

  async function gameOwner(i: number) {
    const owner = `soak_owner_${i}`;
    const game = await call<{ id: string }>(owner, 'POST', '/v1/game/create', { ...offer, name: `Soak world ${i}` }, [201]);
    if (!game) return;
    while (running()) {
      if (!(await call(owner, 'POST', `/v1/game/${game.id}/start`))) return;
      if (!(await waitFor(owner, game.id, 'RUNNING'))) return;
      await call(owner, 'GET', `/v1/game/${game.id}/status`);
      await call(owner, 'GET', `/v1/game/${game.id}/minecraft/players/connected`);
      await call(owner, 'POST', `/v1/game/${game.id}/minecraft/player`, { name: `Guest_${i}`, type: 'WHITELIST', action: 'ADD' });
      if (!(await call(owner, 'POST', `/v1/game/${game.id}/stop`))) return;
      if (!(await waitFor(owner, game.id, 'STOPPED'))) return;
      gameCycles++;
    }
  }

  async function memory() {
    await server.collectGarbage();
    return Math.round(server.rssKb() / 1024);
  }
  // Warm up code paths and pools before the first sample, so it is not of an idle process.
  for (const p of players) await reads(p);
  const samples = [await memory()];
  const sampler = (async () => {
    while (running()) {
      await sleep(Math.min(60_000, Math.max(0, until - Date.now())));
      if (running()) samples.push(await memory());
    }
  })();
  await Promise.all([...players.map((_, i) => socialPlayer(i)), ...Array.from({ length: GAME_OWNERS }, (_, i) => gameOwner(i)), sampler]);
  samples.push(await memory());
  return { minutes, requests, errors, errorSamples, gameCycles, rssStartMb: samples[0]!, rssEndMb: samples.at(-1)!, rssSamplesMb: samples };
}
