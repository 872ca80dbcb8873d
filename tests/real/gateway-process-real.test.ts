import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import readline from 'node:readline';
import minecraftProtocol from 'minecraft-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRealApp } from '../fixtures/real-app.ts';
import { join, quit, reasonText } from '../fixtures/minecraft.ts';

const VERSION = '1.21.4';
const MINUTE = 60_000;
const TOKEN = 'gateway-process-secret-0123';

/** A port free now, for the gateway process to take (and take again when it restarts). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The game gateway as a process of its own (`node src/server/gateway-main.ts`, what `npm run
 * gateway` runs), beside the API on PostgreSQL: it learns names, statuses and servers from the
 * database's notices and asks the API for wakes over the internal call. PostgreSQL only: the
 * embedded PGlite belongs to one process, and the gateway process is a second one (it refuses to
 * start without DATABASE_URL), so the `real` project leaves it out without TEST_DATABASE_URL
 * (vitest.config.ts).
 */
const gatewayPort = await freePort();

describe('the game gateway as a process of its own, with a real server', () => {
  let ahead = 0;
  const real = useRealApp('gateway-process', {
    engine: 'postgres',
    clock: () => new Date(Date.now() + ahead),
    // The API leaves the port to the gateway process and answers its wakes.
    env: { INTERNAL_TOKEN: TOKEN, GAME_GATEWAY_PROCESS: 'true', GAME_GATEWAY_PORT: String(gatewayPort) },
  });
  const { as, bots } = real;
  const alice = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => as('alice', { method, url, ...(payload ? { payload } : {}) });
  let gateway: ChildProcess | undefined;
  let env: Record<string, string>;
  const logs: string[] = [];

  /** Starts the gateway process; resolves once it says it listens (names and servers loaded). */
  async function startGateway(): Promise<void> {
    const child = spawn(process.execPath, ['src/server/gateway-main.ts'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    gateway = child;
    const lines = readline.createInterface({ input: child.stderr! });
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the gateway process ended (${code}): ${logs.join('\n')}`)));
      lines.on('line', (line) => {
        logs.push(line);
        if (line.includes(`game gateway on port ${gatewayPort}`)) resolve();
      });
    });
  }

  async function killGateway(): Promise<void> {
    const child = gateway!;
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async function ping(host: string): Promise<string> {
    const connect = (client: minecraftProtocol.Client) => client.setSocket(net.connect(gatewayPort, '127.0.0.1'));
    const answer = await minecraftProtocol.ping({ host, port: gatewayPort, version: VERSION, connect } as minecraftProtocol.PingOptions);
    return 'description' in answer ? reasonText(answer.description) : '';
  }

  beforeAll(async () => {
    const address = await real.app.listen({ port: 0, host: '127.0.0.1' });
    const [{ schema }] = ((await real.database.db.execute('select current_schema() as schema')) as unknown as { rows: Array<{ schema: string }> }).rows as [{ schema: string }];
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    env = {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: url.toString(),
      INTERNAL_TOKEN: TOKEN,
      GAME_GATEWAY_PORT: String(gatewayPort),
      GAME_GATEWAY_API_URL: address,
      DATA_DIR: real.dataDir,
      LOG_LEVEL: 'info',
    };
  });

  afterAll(async () => {
    if (gateway) await killGateway();
  });

  it('refuses to start without PostgreSQL or the internal token', async () => {
    for (const missing of ['DATABASE_URL', 'INTERNAL_TOKEN']) {
      const child = spawn(process.execPath, ['src/server/gateway-main.ts'], { env: { ...env, [missing]: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
      let said = '';
      child.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
      const code = await new Promise((resolve) => child.once('exit', resolve));
      expect(code).toBe(78);
      expect(said).toContain(`${missing} is not set`);
    }
  });

  it('leads a player to a running game by name, keeps it running while it restarts, and wakes a sleeping one for a player who then spawns', { timeout: 400_000 }, async () => {
    const offer = await real.definition(VERSION);
    const gameId = await real.buy('alice', { ...offer, name: 'Process world', addressName: 'proc-world', settings: { motd: 'By the gateway process' } });
    const game = async () => (await alice('GET', `/v1/game/${gameId}`)).json() as { status: string; statusChangedAt: string };
    expect((await alice('PUT', `/v1/game/${gameId}/settings`, { sleepAfterMinutes: 5 })).statusCode).toBe(200);
    await startGateway();
    expect(await ping('proc-world.localhost')).toContain('est arrêté');

    expect((await alice('POST', `/v1/game/${gameId}/start`)).statusCode).toBe(200);
    await expect.poll(async () => (await game()).status, { timeout: 180_000, interval: 250 }).toBe('RUNNING');
    // The API shows the address the gateway process serves, without serving it itself.
    expect((await alice('GET', `/v1/game/${gameId}/status`)).json()).toMatchObject({ address: `proc-world.localhost:${gatewayPort}` });
    const running = await game();

    // Where the server is came with its RUNNING notice.
    await expect.poll(() => ping('proc-world.localhost'), { timeout: 10_000 }).toBe('By the gateway process');
    const first = await join(gatewayPort, 'Through_1', VERSION, 60_000, 'proc-world.localhost');
    if (!first.joined) throw new Error(`refused: ${first.reason}`);
    bots.push(first.bot);
    await expect.poll(async () => (await alice('GET', `/v1/game/${gameId}/minecraft/players/connected`)).json().players, { timeout: 10_000 }).toEqual([expect.objectContaining({ name: 'Through_1' })]);

    // Killed: its player's connection goes with it, the game does not.
    const cut = new Promise((resolve) => first.bot.once('end', resolve));
    await killGateway();
    await cut;
    expect(await game()).toMatchObject({ status: 'RUNNING', statusChangedAt: running.statusChangedAt });
    await startGateway();
    const again = await join(gatewayPort, 'Through_2', VERSION, 60_000, 'proc-world.localhost');
    if (!again.joined) throw new Error(`refused: ${again.reason}`);
    // The same server all along: never stopped, never started again.
    expect(await game()).toMatchObject({ status: 'RUNNING', statusChangedAt: running.statusChangedAt });
    await quit(again.bot);

    // Nobody on it: each look moves the games' clock a minute on, until the reconciler puts it to sleep.
    await expect
      .poll(
        async () => {
          const now = (await game()).status;
          if (now === 'RUNNING') ahead += MINUTE;
          return now;
        },
        { timeout: 180_000, interval: 500 },
      )
      .toBe('SLEEPING');
    await expect.poll(() => ping('proc-world.localhost'), { timeout: 10_000 }).toContain('Asleep, wakes when you join');

    // A login wakes it through the API's internal call; held until it runs, the player spawns without reconnecting.
    const woken = await join(gatewayPort, 'Sleeper_1', VERSION, 240_000, 'proc-world.localhost');
    if (!woken.joined) throw new Error(`refused: ${woken.reason}\n${logs.join('\n')}`);
    bots.push(woken.bot);
    expect((await game()).status).toBe('RUNNING');
    expect((await alice('GET', `/v1/game/${gameId}/minecraft/players/connected`)).json()).toMatchObject({ playersOnline: 1, players: [{ name: 'Sleeper_1' }] });
  });
});
