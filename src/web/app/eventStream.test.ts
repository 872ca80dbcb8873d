import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openEventStream, SseParserStream, type StreamEvent } from './eventStream.ts';

/** A real HTTP server speaking server-sent events, counting connections and the headers it got. */
async function sseServer(respond: (res: http.ServerResponse) => void) {
  const seen: { authorization: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ authorization: req.headers.authorization });
    respond(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stream`;
  return { url, seen, close: () => new Promise((r) => server.close(r)) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('openEventStream', () => {
  let close: () => Promise<unknown> = async () => {};
  afterEach(() => close());

  it('sends the bearer header and parses events split across chunks, CRLF lines and comments', async () => {
    const s = await sseServer((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunks = [
        ': hello\n\n',
        'id: 7\nevent: basic-link-event\nda',
        'ta: {"title":"Hi"}\n\n',
        'event: heartbeat\r\ndata: {}\r\n\r\n',
        'id: 8\nevent: basic-link-event\ndata: line one\ndata: line two\n\n',
      ];
      let i = 0;
      const next = () => {
        if (i < chunks.length) {
          res.write(chunks[i++]);
          setTimeout(next, 20);
        } else res.end();
      };
      next();
    });
    close = s.close;
    const events: StreamEvent[] = [];
    openEventStream(s.url, 'tok3n', (e) => events.push(e));
    await expect.poll(() => events.length).toBe(3);
    expect(events).toEqual([
      { id: '7', event: 'basic-link-event', data: '{"title":"Hi"}' },
      { id: '', event: 'heartbeat', data: '{}' },
      { id: '8', event: 'basic-link-event', data: 'line one\nline two' },
    ]);
    expect(s.seen[0]!.authorization).toBe('Bearer tok3n');
    // The stream ended: it stays closed (docs/product.md, Notifications), no second connection.
    await sleep(300);
    expect(s.seen).toHaveLength(1);
  });

  it('gives up on an error answer without retrying, and stops when closed', async () => {
    const refused = await sseServer((res) => res.writeHead(401).end());
    const events: StreamEvent[] = [];
    openEventStream(refused.url, 'bad', (e) => events.push(e));
    await sleep(300);
    expect(refused.seen).toHaveLength(1);
    expect(events).toEqual([]);
    await refused.close();

    const open = await sseServer((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => res.write('event: heartbeat\ndata: {}\n\n'), 30);
      res.on('close', () => clearInterval(timer));
    });
    close = open.close;
    const beats: StreamEvent[] = [];
    const stop = openEventStream(open.url, 't', (e) => beats.push(e));
    await expect.poll(() => beats.length).toBeGreaterThan(1);
    stop();
    await sleep(100);
    const count = beats.length;
    await sleep(200);
    expect(beats.length).toBe(count);
  });
});

describe('openEventStream’s onOpen', () => {
  let close: () => Promise<unknown> = async () => {};
  afterEach(() => close());

  it('is called once the server answered, before its first event is written, so what came before is read then', async () => {
    let writeFirst = () => {};
    const s = await sseServer((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': connected\n\n');
      writeFirst = () => res.write('id: 1\nevent: basic-link-event\ndata: {}\n\n');
    });
    close = s.close;
    const seen: string[] = [];
    const stop = openEventStream(
      s.url,
      't',
      (e) => seen.push(`event ${e.id}`),
      () => seen.push('open'),
    );
    await expect.poll(() => seen).toEqual(['open']);
    writeFirst();
    await expect.poll(() => seen).toEqual(['open', 'event 1']);
    stop();
  });

  it('is called once when the stream cannot open, so the list is read all the same', async () => {
    const refused = await sseServer((res) => res.writeHead(429).end());
    close = refused.close;
    let opened = 0;
    openEventStream(
      refused.url,
      't',
      () => {},
      () => opened++,
    );
    await expect.poll(() => opened).toBe(1);
    await sleep(200);
    expect(opened).toBe(1);
  });
});

describe('SseParserStream', () => {
  /** The events of `chunks` fed one by one, as a network would cut them. */
  async function parse(chunks: string[]): Promise<StreamEvent[]> {
    const events: StreamEvent[] = [];
    const input = new ReadableStream<string>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    const reader = input.pipeThrough(new SseParserStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return events;
      events.push(value);
    }
  }

  it('reads CRLF, LF and CR line ends, a CRLF cut between chunks, fields with and without a space, and an id with the event that sent it', async () => {
    expect(await parse(['event:a\r', '\ndata:1\r', '\n\r', '\nid: 9\rdata:  2\r\r', 'data: 3\n', '\n'])).toEqual([
      { id: '', event: 'a', data: '1' },
      { id: '9', event: 'message', data: ' 2' },
      { id: '', event: 'message', data: '3' },
    ]);
  });

  it('drops comments, events without data, unknown fields and an event the stream ended before its blank line', async () => {
    expect(await parse([': keep-alive\n\n', 'event: heartbeat\n\n', 'retry: 10\nfoo: bar\ndata\n\n', 'data: cut'])).toEqual([{ id: '', event: 'message', data: '' }]);
  });
});
