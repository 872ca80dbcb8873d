import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../fixtures/app.ts';
import { catalogue, userId } from '../fixtures/games.ts';
import { startFakeKubernetes, type FakeKubernetes } from '../fixtures/kubernetes.ts';
import { createRuntime } from '../../src/runtime/index.ts';
import { offlineUuid } from '../../src/runtime/minecraft/player-lists.ts';
import { rankedMatches } from '../../src/server/db/schema/competitions.ts';

type Env = Array<{ name: string; value?: string }>;
interface GameServerObject {
  spec: { template: { spec: { containers: Array<{ name: string; env?: Env }> } } };
}

/**
 * A match server on the agones driver, against the fake Kubernetes API: to the runtime it is an
 * ordinary game, so the reconciler makes its GameServer like any other's, and removes it with its
 * objects once the match is over.
 */
describe('ranked match servers on Agones', () => {
  let kube: FakeKubernetes;
  let t: TestApp;

  beforeEach(async () => {
    kube = await startFakeKubernetes();
    t = await startTestApp(
      {},
      {
        runtime: (config) =>
          createRuntime({ ...config.game, driver: 'agones', kubernetes: { apiUrl: kube.url, token: kube.token, namespace: 'games', image: 'itzg/minecraft-server:java21', stopTimeoutMs: 5_000 } }),
      },
    );
  });

  afterEach(async () => {
    await t?.close();
    await kube?.close();
  });

  const ofGame = (gameId: string) => [...kube.objects.keys()].filter((key) => key.includes(`blockhost-${gameId}`));

  it('starts a GameServer with PvP, a flat world and a whitelist of the two players, and removes it after the match', async () => {
    // A definition in adventure mode: a duel is still fought in survival.
    const { definitionId } = await catalogue(t, { version: '1.8.8', settings: { gameMode: 'adventure', difficulty: 'easy' } });
    await t.app.services.competitions.seedModes(new Map([['1.8.8', definitionId]]));
    const modeId = (await t.app.inject({ url: '/v1/ranked/modes' })).json().data[0].id as string;
    for (const name of ['alice', 'bob']) {
      expect((await t.as(name, { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: `${name[0]!.toUpperCase()}${name.slice(1)}MC` } })).statusCode).toBeLessThan(300);
      expect((await t.as(name, { method: 'POST', url: '/v1/ranked/queue', payload: { modeId } })).statusCode).toBe(201);
    }
    expect(await t.app.services.matchmaking.tick()).toBe(1);
    const [match] = await t.app.services.db.select().from(rankedMatches);
    const gameId = match!.gameId!;

    // The reconciler's round provisions and starts it as it does a player's game.
    await t.app.services.reconciler.tick();
    const gsPath = `/apis/agones.dev/v1/namespaces/games/gameservers/blockhost-${gameId}`;
    const gs = kube.objects.get(gsPath) as GameServerObject | undefined;
    expect(gs, `no GameServer among ${[...kube.objects.keys()].join(', ')}`).toBeDefined();
    const env = Object.fromEntries((gs!.spec.template.spec.containers.find((c) => c.name === 'minecraft')!.env ?? []).map((e) => [e.name, e.value]));
    expect(env).toMatchObject({ VERSION: '1.8.8', PVP: 'TRUE', MODE: 'survival', LEVEL_TYPE: 'FLAT', ENABLE_WHITELIST: 'TRUE', ENFORCE_WHITELIST: 'TRUE' });
    const lists = kube.objects.get(`/api/v1/namespaces/games/configmaps/blockhost-${gameId}-lists`) as { data: Record<string, string> };
    expect(JSON.parse(lists.data['whitelist.json']!)).toEqual([
      { uuid: offlineUuid('AliceMC'), name: 'AliceMC' },
      { uuid: offlineUuid('BobMC'), name: 'BobMC' },
    ]);
    expect(JSON.parse(lists.data['ops.json']!)).toEqual([]);

    // The match ends (the supervision's call): its server is stopped, then removed with its world,
    // password and lists over the next rounds.
    const [alice, bob] = [await userId(t, 'alice'), await userId(t, 'bob')];
    expect(await t.app.services.matchResults.recordResult(match!.id, { winner: alice, kills: { [alice]: 3, [bob]: 0 } })).toBe(true);
    await expect
      .poll(
        async () => {
          await t.app.services.matchSupervision.tick();
          await t.app.services.reconciler.tick();
          return (await t.app.services.db.select().from(rankedMatches).where(eq(rankedMatches.id, match!.id)))[0]!.serverRemovedAt;
        },
        { timeout: 15_000 },
      )
      .not.toBeNull();
    expect(ofGame(gameId)).toEqual([]);
    expect(kube.calls).toContain(`DELETE ${gsPath}`);
  });
});
