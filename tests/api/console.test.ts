import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConsoleLine } from '../../src/contract/console.ts';
import { startListeningApp, type TestApp } from '../fixtures/app.ts';
import { buyGame, runGame, userId } from '../fixtures/games.ts';
import { befriend } from '../fixtures/social.ts';
import { openStream, type SseEvent } from '../fixtures/sse.ts';

const staff = { roles: ['staff'] };
const lines = (events: SseEvent[]) => events.filter((e) => e.event === 'line').map((e) => JSON.parse(e.data) as ConsoleLine);

// The flood test writes for 10 s; a loaded machine adds to it.
describe('game console', { timeout: 60_000 }, () => {
  let t: TestApp & { origin: string };
  beforeEach(async () => {
    t = await startListeningApp();
  });
  afterEach(() => t.close());

  const stream = async (gameId: string, user = 'alice', headers: Record<string, string> = {}) => openStream(`${t.origin}/v1/game/${gameId}/console/stream`, await t.token(user), headers);

  it('says a game never started, then streams its lines; a client coming back with Last-Event-ID gets exactly the ones it missed', async () => {
    const { gameId } = await buyGame(t);
    const first = await stream(gameId);
    expect(first.status).toBe(200);
    await first.waitFor('never-started');

    await runGame(t, gameId);
    for (let i = 1; i <= 100; i++) t.driver.print(gameId, `line ${i}`);
    const seen = lines(await first.waitFor('line', 101));
    expect(seen.map((l) => l.seq)).toEqual(Array.from({ length: 101 }, (_, i) => i + 1));
    expect(seen[0]).toMatchObject({ level: 'info', text: 'Starting the server' });
    expect(seen[100]).toMatchObject({ seq: 101, level: 'info', text: 'line 100', at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(first.events.filter((e) => e.event === 'line').map((e) => e.id)).toEqual(seen.map((l) => String(l.seq)));

    // A second client that had read up to line 40 reconnects while the server keeps printing.
    const second = await stream(gameId, 'alice', { 'last-event-id': '41' });
    t.driver.print(gameId, 'after the reconnection', 'warn');
    const resumed = lines(await second.waitFor('line', 61));
    expect(resumed.map((l) => l.seq)).toEqual(Array.from({ length: 61 }, (_, i) => 42 + i));
    expect(resumed.at(-1)).toMatchObject({ seq: 102, level: 'warn', text: 'after the reconnection' });
    expect(second.events.some((e) => e.event === 'never-started')).toBe(false);
    expect(lines(await first.waitFor('line', 102)).at(-1)!.seq).toBe(102);
    first.close();
    second.close();

    // Another user's game does not exist for them.
    expect((await stream(gameId, 'bob')).status).toBe(404);
  });

  it('opens a console whose history is larger than a stream may hold on its last lines, with or without Last-Event-ID', async () => {
    const { gameId } = await buyGame(t);
    await runGame(t, gameId);
    // 450 lines of 3 000 characters: about 1.4 MB of history, within the flood control's burst.
    for (let i = 1; i <= 450; i++) t.driver.print(gameId, `long line ${i} ${'x'.repeat(3000)}`);
    expect(t.consoles.lines({ id: gameId }, 0, 5000)!.at(-1)!.text).toMatch(/^long line 450 /);
    for (const [n, headers] of ([{}, { 'last-event-id': '1' }] as Array<Record<string, string>>).entries()) {
      const last = t.consoles.lines({ id: gameId }, 0, 5000)!.at(-1)!;
      const s = await stream(gameId, 'alice', headers);
      expect(s.status).toBe(200);
      const [first] = lines(await s.waitFor('line'));
      // A line printed once the stream is open arrives after the whole history sent.
      const marker = `printed after opening ${n}`;
      t.driver.print(gameId, marker);
      while (!lines(s.events).some((l) => l.text === marker)) await s.waitFor('line', lines(s.events).length + 1);
      const got = lines(s.events);
      expect(got.at(-1)).toMatchObject({ seq: last.seq + 1, text: marker });
      // The last lines of the history, in order and without a gap, ending with the last one printed.
      expect(first!.seq).toBeGreaterThan(1);
      expect(got.map((l) => l.seq)).toEqual(got.map((_, i) => first!.seq + i));
      expect(got.length).toBeGreaterThan(100);
      s.close();
    }
  });

  // What the flood costs the API's event loop is a figure of `npm run bench console`, not a bound here.
  it('collapses a flood of 1 000 lines a second for 10 s into markers', async () => {
    const { gameId } = await buyGame(t);
    await runGame(t, gameId);
    const s = await stream(gameId);
    await s.waitFor('line');
    let printed = 0;
    await new Promise<void>((resolve) => {
      const started = Date.now();
      const timer = setInterval(() => {
        // What 1 000 lines a second would have printed by now.
        const due = Math.min(10_000, Math.floor(Date.now() - started));
        for (; printed < due; printed++) t.driver.print(gameId, `flood line ${printed} ${'x'.repeat(80)}`);
        if (printed >= 10_000) {
          clearInterval(timer);
          resolve();
        }
      }, 10);
    });

    // Every printed line is either sent or counted in a marker, once.
    await s.waitFor('line', 2, 5000);
    const deadline = Date.now() + 5000;
    let got = lines(s.events);
    while (got.reduce((n, l) => n + (l.omitted ?? 1), 0) < 10_001 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      got = lines(s.events);
    }
    expect(got.reduce((n, l) => n + (l.omitted ?? 1), 0)).toBe(10_001);
    const markers = got.filter((l) => l.omitted);
    expect(markers.length).toBeGreaterThanOrEqual(8);
    expect(markers[0]).toMatchObject({ level: 'warn', text: expect.stringMatching(/^\d+ lines omitted$/) });
    expect(got.length).toBeLessThan(3000);
    expect(got.map((l) => l.seq)).toEqual(got.map((_, i) => i + 1));
    s.close();
  });

  it('runs the owner’s commands, audited, within their limits', async () => {
    const { gameId } = await buyGame(t);
    const post = (command: unknown, user = 'alice', headers: Record<string, string> = {}) => t.as(user, { method: 'POST', url: `/v1/game/${gameId}/console`, payload: { command }, headers });

    expect((await post('list')).statusCode).toBe(409);
    await runGame(t, gameId);
    const list = await post('list', 'alice', { 'idempotency-key': 'list-1' });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual({ output: 'There are 0 of a max of 10 players online: ' });
    // A retry with the same key answers again without running it twice.
    expect((await post('list', 'alice', { 'idempotency-key': 'list-1' })).json()).toEqual(list.json());
    expect(t.driver.commands(gameId).filter((c) => c === 'list')).toHaveLength(1);
    // The command and its answer are in the console's history, for the page reloaded later.
    const history = t.consoles.lines({ id: gameId }, 0, 100)!.map(({ text, command }) => ({ text, command }));
    expect(history.slice(-2)).toEqual([
      { text: 'list', command: true },
      { text: 'There are 0 of a max of 10 players online:', command: undefined },
    ]);

    const audit = await t.as('boss', { ...staff, method: 'GET', url: `/v1/staff/audit?entity=game&entityId=${gameId}` });
    // Once, though it was sent twice; the start that ran the game is audited beside it.
    expect(audit.json().data.filter((e: { action: string }) => e.action === 'console.command')).toMatchObject([
      { action: 'console.command', actorName: 'alice', after: { command: 'list', output: list.json().output } },
    ]);

    const control = await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/console`, payload: { command: 'say hi\nop bob' }, headers: { 'accept-language': 'fr' } });
    expect(control.statusCode).toBe(400);
    expect(control.json().errors).toEqual([expect.objectContaining({ field: 'command', message: expect.stringContaining('caractères de contrôle') })]);
    const long = await post('say '.padEnd(257, 'a'));
    expect(long.statusCode).toBe(400);
    expect(long.json().errors[0].field).toMatch(/command/);
    expect(t.driver.commands(gameId).some((c) => c.includes('op bob') || c.length > 256)).toBe(false);
    expect(t.consoles.lines({ id: gameId }, 0, 100)!.filter((l) => l.command)).toHaveLength(1);

    // Bob cannot even tell the game exists.
    expect((await post('list', 'bob')).statusCode).toBe(404);

    // 10 a second per user: the clock stands still, so the 11th is refused until it moves.
    t.clock.advance(1000);
    for (let i = 0; i < 10; i++) expect((await post(`say ${i}`)).statusCode).toBe(200);
    const refused = await post('say too fast');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toMatchObject({ code: 'console.tooManyCommands' });
    t.clock.advance(1000);
    expect((await post('say later')).statusCode).toBe(200);
  });

  it('refuses invisible and direction-reversing characters in a command, in the caller’s language, and runs nothing', async () => {
    const { gameId } = await buyGame(t);
    await runGame(t, gameId);
    const viewer = await stream(gameId);
    await viewer.waitFor('line');
    const sent = t.driver.commands(gameId).length;
    for (const [char, language, words] of [
      ['\u202e', 'fr', 'invisibles'],
      ['\u2028', 'en', 'invisible or'],
      ['\u200b', 'fr', 'invisibles'],
      ['\ufeff', 'en', 'invisible'],
      ['\u2066', 'en', 'direction'],
    ] as const) {
      const res = await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/console`, payload: { command: `say ${char}dlrow olleh` }, headers: { cookie: `locale=${language}` } });
      expect(res.statusCode, `U+${char.codePointAt(0)!.toString(16)}`).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json().errors).toEqual([expect.objectContaining({ field: 'command', message: expect.stringContaining(words) })]);
      expect(res.json().detail).toContain(`U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
    }
    expect(t.driver.commands(gameId)).toHaveLength(sent);
    // Nothing reached the console other viewers read.
    const seen = lines(viewer.events).map((l) => l.text);
    expect(seen.some((text) => /[\u202e\u2028\u200b\ufeff\u2066]/u.test(text))).toBe(false);
    expect(t.consoles.lines({ id: gameId }, 0, 100)!.filter((l) => l.command)).toEqual([]);
    viewer.close();
    // Letters of every script still pass.
    expect((await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/console`, payload: { command: 'say héllo мир 世界 مرحبا' } })).statusCode).toBe(200);
  });

  /** A game of alice's, running, shared with bob as a moderator and with dave as a co-admin. */
  const sharedGame = async () => {
    const { gameId } = await buyGame(t);
    for (const [friend, role] of [
      ['bob', 'MODERATOR'],
      ['dave', 'COADMIN'],
    ] as const) {
      await befriend(t, 'alice', friend);
      const grant = await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/access`, payload: { friendId: await userId(t, friend), role } });
      expect(grant.statusCode, grant.body).toBe(201);
    }
    await runGame(t, gameId);
    const send = (user: string, command: string, language = 'fr') => t.as(user, { method: 'POST', url: `/v1/game/${gameId}/console`, payload: { command }, headers: { cookie: `locale=${language}` } });
    const list = async (type: string) => ((await t.as('alice', { url: `/v1/game/${gameId}/minecraft/players?type=${type}` })).json().players as Array<{ name: string }>).map((p) => p.name);
    const game = async () => (await t.as('alice', { url: `/v1/game/${gameId}` })).json() as { status: string; desiredState: string; whitelistEnabled: boolean };
    return { gameId, send, list, game };
  };

  it('lets a moderator send what a moderator may do in the panel, and nothing that stops the server or changes its operators or settings', async () => {
    const { gameId, send, list, game } = await sharedGame();
    const before = t.driver.commands(gameId).length;
    for (const command of ['stop', '/stop', 'minecraft:stop', 'execute as run run stop', 'op bob', 'deop alice', 'motd Closed', 'difficulty peaceful']) {
      const refused = await send('bob', command);
      expect(refused.statusCode, command).toBe(403);
      expect(refused.json().code).toBe('console.forCoadmins');
    }
    const french = (await send('bob', 'op bob')).json();
    expect(french.detail).toBe('Votre rôle sur ce serveur ne permet pas la commande « op » : elle est réservée aux co-admins et au propriétaire');
    expect((await send('bob', 'stop', 'en')).json().detail).toBe('Your role on this server does not allow the command “stop”: it is for co-admins and the owner');
    // Refused: nothing reached the server, its console or its lists.
    expect(t.driver.commands(gameId)).toHaveLength(before);
    expect(t.consoles.lines({ id: gameId }, 0, 100)!.filter((l) => l.command)).toEqual([]);
    expect(await game()).toMatchObject({ status: 'RUNNING', desiredState: 'running' });
    expect(await list('OPS')).toEqual([]);
    // Nor may they make operators from the panel.
    expect((await t.as('bob', { method: 'POST', url: `/v1/game/${gameId}/minecraft/player`, payload: { name: 'bob', type: 'OPS', action: 'ADD' } })).statusCode).toBe(403);

    // What the panel lets them do, the console does too.
    for (const command of ['say hello', 'time set day', 'weather clear', 'kick Steve', 'whitelist add Steve', 'ban Griefer', 'pardon Griefer', 'ban Troll', 'whitelist on']) {
      const done = await send('bob', command);
      expect(done.statusCode, `${command}: ${done.body}`).toBe(200);
    }
    expect(t.driver.commands(gameId).slice(before)).toEqual([
      'say hello',
      'time set day',
      'weather clear',
      'kick Steve',
      'whitelist add Steve',
      'ban Griefer',
      'pardon Griefer',
      'ban Troll',
      'whitelist on',
    ]);
    // The panel's lists are the game's.
    expect(await list('WHITELIST')).toEqual(['Steve']);
    expect(await list('BANNED')).toEqual(['Troll']);
    expect((await game()).whitelistEnabled).toBe(true);
  });

  it('takes a console stop from a co-admin or the owner for a stop, never a crash, and keeps operators given there', async () => {
    const { gameId, send, list, game } = await sharedGame();
    // A co-admin's operators are the panel's, and stay at the next start.
    expect((await send('dave', 'op Steve')).statusCode).toBe(200);
    expect((await send('alice', '/execute as Steve run op Alex')).statusCode).toBe(200);
    expect(await list('OPS')).toEqual(['Steve', 'Alex']);
    expect(t.driver.commands(gameId).filter((c) => c.includes('op '))).toEqual(['op Steve', '/execute as Steve run op Alex']);
    expect((await send('dave', 'deop Alex')).statusCode).toBe(200);
    expect(await list('OPS')).toEqual(['Steve']);

    const stopped = await send('dave', 'stop');
    expect(stopped.statusCode, stopped.body).toBe(200);
    for (let i = 0; i < 3; i++) await t.app.services.reconciler.tick();
    t.clock.advance(60_000);
    for (let i = 0; i < 3; i++) await t.app.services.reconciler.tick();
    expect(await game()).toMatchObject({ status: 'STOPPED', desiredState: 'stopped' });
    expect(t.driver.calls.filter((c) => c === `start ${gameId}`)).toHaveLength(1);
    const notices = (await t.as('alice', { url: '/v1/user/notifications?size=100' })).json().data as Array<{ data: { key: string } }>;
    expect(notices.map((n) => n.data.key).filter((key) => key.startsWith('game.crash'))).toEqual([]);
    const activity = (await t.as('alice', { url: `/v1/game/${gameId}/activity` })).json().data as Array<{ action: string; actorName: string; by: string; detail: Record<string, unknown> }>;
    expect(activity[0]).toMatchObject({ action: 'game.stop', actorName: 'dave', by: 'COADMIN', detail: { command: 'stop' } });

    // Started again, the server is told the operators the console gave.
    expect((await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/start` })).statusCode).toBe(200);
    await t.app.services.reconciler.tick();
    expect(t.driver.servers.get(gameId)!.spec.ops).toEqual(['Steve']);
    await t.app.services.reconciler.tick();
    expect((await send('alice', 'stop')).statusCode).toBe(200);
    expect(await game()).toMatchObject({ status: 'STOPPING', desiredState: 'stopped' });
  });
});

describe('console stream limits', () => {
  it('closes a user’s oldest console stream past their limit, and refuses streams past an address’s limit', async () => {
    const t = await startListeningApp({ STREAMS_PER_USER: '3', STREAMS_PER_ADDRESS: '5' });
    const opened: Array<Awaited<ReturnType<typeof openStream>>> = [];
    try {
      const [alices, bobs] = [await buyGame(t), await buyGame(t, 'bob')];
      const open = async (user: string, gameId: string) => {
        const s = await openStream(`${t.origin}/v1/game/${gameId}/console/stream`, await t.token(user));
        opened.push(s);
        return s;
      };
      for (let i = 0; i < 4; i++) expect((await open('alice', alices.gameId)).status).toBe(200);
      // The first one was closed for the fourth; the other three stay and still get new lines.
      await opened[0]!.closed;
      expect(t.app.services.console.streamCount).toBe(3);
      await runGame(t, alices.gameId);
      for (const s of opened.slice(1)) expect(lines(await s.waitFor('line')).at(0)).toMatchObject({ seq: 1 });

      // Two more from bob fill the address (3 + 2); a third is refused, and alice's stay open.
      for (let i = 0; i < 2; i++) expect((await open('bob', bobs.gameId)).status).toBe(200);
      const refused = await fetch(`${t.origin}/v1/game/${bobs.gameId}/console/stream`, { headers: { authorization: `Bearer ${await t.token('bob')}` } });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(await refused.json()).toMatchObject({ code: 'console.tooManyStreams', detail: expect.stringContaining('flux de console') });
      expect(t.app.services.console.streamCount).toBe(5);
      // Notification streams are counted apart: the full address may still open one.
      opened.push(await openStream(`${t.origin}/v1/user/notifications/stream`, await t.token('bob')));
      expect(opened.at(-1)!.status).toBe(200);
    } finally {
      for (const s of opened) s.close();
      await t.close();
    }
  });
});
