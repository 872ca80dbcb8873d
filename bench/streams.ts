import http from 'node:http';
import { createParser } from 'eventsource-parser';
import { NOTIFICATION_EVENT } from '../src/contract/events.ts';

export interface OpenStream {
  close(): void;
}

/**
 * Opens a notification stream with as little client-side cost as possible (one socket, the same
 * parser as the web app and no more), calling `onEvent(id)` for each basic-link-event.
 */
function openStream(origin: string, token: string, onEvent: (id: string) => void): Promise<OpenStream> {
  const url = new URL('/v1/user/notifications/stream', origin);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      res.setEncoding('utf8');
      const parser = createParser({ onEvent: ({ event, id }) => event === NOTIFICATION_EVENT && id && onEvent(id) });
      res.on('data', (chunk: string) => parser.feed(chunk));
      res.on('error', () => {});
      resolve({ close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens `count` streams in batches, spread over the tokens. */
export async function openMany(origin: string, tokens: string[], count: number, onEvent: (stream: number, id: string) => void, batch = 200): Promise<OpenStream[]> {
  const streams: OpenStream[] = [];
  for (let i = 0; i < count; i += batch) {
    const opened = await Promise.all(Array.from({ length: Math.min(batch, count - i) }, (_, j) => openStream(origin, tokens[(i + j) % tokens.length]!, (id) => onEvent(i + j, id))));
    streams.push(...opened);
  }
  return streams;
}
