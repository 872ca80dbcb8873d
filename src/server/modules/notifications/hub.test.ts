import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamHub } from './hub.ts';

describe('StreamHub', () => {
  let server: http.Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function twoStreams(hub: StreamHub) {
    server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      hub.open(req.url === '/a' ? 'user-a' : 'user-b', res);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const read = async (path: string) => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      return { next: async () => (text += (await reader.read()).value ?? ''), text: () => text, cancel: () => reader.cancel() };
    };
    const a = await read('/a');
    const b = await read('/b');
    while (hub.count < 2) await new Promise((r) => setTimeout(r, 5));
    return { a, b };
  }

  it('sends a heartbeat to every stream and a notification only to its user, once', async () => {
    const hub = new StreamHub(undefined, 50);
    const { a, b } = await twoStreams(hub);
    await a.next();
    expect(a.text()).toContain('event: heartbeat');
    hub.deliver({ userId: 'user-b', id: 'n1', seq: 7, data: { title: 'Hi', description: 'd', link: null, key: 'text', params: { title: 'Hi', description: 'd' } } });
    hub.deliver({ userId: 'user-b', id: 'n1', seq: 7, data: { title: 'Hi', description: 'd', link: null, key: 'text', params: { title: 'Hi', description: 'd' } } });
    while (!b.text().includes('basic-link-event')) await b.next();
    await new Promise((r) => setTimeout(r, 120));
    await b.next();
    expect(b.text().match(/event: basic-link-event/g)).toHaveLength(1);
    expect(b.text()).toContain('id: n1\nevent: basic-link-event\ndata: {"title":"Hi","description":"d","link":null,"key":"text","params":{"title":"Hi","description":"d"}}');
    expect(a.text()).not.toContain('basic-link-event');
    await a.cancel();
    await b.cancel();
    hub.closeAll();
    expect(hub.count).toBe(0);
  });

  it("writes a resource change to its user's streams only, with no id", async () => {
    const hub = new StreamHub(undefined, 50);
    const { a, b } = await twoStreams(hub);
    hub.publish('user-a', { resource: 'games', ids: ['g1'], type: 'updated' });
    hub.publish('user-b', { resource: 'friends', ids: [], type: 'created' });
    // Written after b's: once a has it, a would have had b's too.
    hub.publish('user-a', { resource: 'notifications', ids: ['n1'], type: 'updated' });
    while (!a.text().includes('"notifications"')) await a.next();
    while (!b.text().includes('"friends"')) await b.next();
    expect(a.text()).toContain('event: resource-change\ndata: {"resource":"games","ids":["g1"],"type":"updated"}\n\n');
    expect(a.text()).not.toMatch(/^id:/m);
    expect(a.text()).not.toContain('"friends"');
    expect(b.text()).not.toContain('"games"');
    await a.cancel();
    await b.cancel();
    hub.closeAll();
  });
});
