import { describe, expect, it } from 'vitest';
import { useTestApp } from '../fixtures/app.ts';
import { buyGame, runGame } from '../fixtures/games.ts';

const MINUTE = 60_000;

describe('the address of a sleeping game', () => {
  // The game gateway on a free port: addresses by name.
  const t = useTestApp({ GAME_GATEWAY_PORT: '0' });
  const tick = () => t.current.app.services.reconciler.tick();
  const status = async (id: string) => (await t.current.as('alice', { method: 'GET', url: `/v1/game/${id}/status` })).json();

  it('is still its name, which a player joins to wake it, without the port of a server that does not run', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const running = await status(gameId);
    expect(running.address).toMatch(/^[a-z0-9-]+\.localhost:\d+$/);
    expect(running.directAddress).toMatch(/:\d+$/);

    await tick();
    t.current.clock.advance(10 * MINUTE);
    await tick();
    const asleep = await status(gameId);
    expect(asleep.status).toBe('SLEEPING');
    expect(asleep.address).toBe(running.address);
    expect(asleep).not.toHaveProperty('directAddress');

    // Stopped by its owner, it has no address: nothing would answer there.
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/stop` })).statusCode).toBe(200);
    expect((await status(gameId)).address).toBeNull();
  });
});
