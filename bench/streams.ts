import http from 'node:http';

export interface OpenStream {
  close(): void;
}

/**
 * Opens a notification stream with as little client-side cost as possible (one socket, no parser
 * beyond finding event ids), calling `onEvent(id)` for each basic-link-event.
 */
export function openStream(origin: string, token: string, onEvent: (id: string) => void): Promise<OpenStream> {
  const url = new URL('/v1/user/notifications/stream', origin);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const id = /^id: (.+)$/m.exec(frame)?.[1];
          if (id && frame.includes('event: basic-link-event')) onEvent(id);
        }
      });
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
    const opened = await Promise.all(
      Array.from({ length: Math.min(batch, count - i) }, (_, j) => openStream(origin, tokens[(i + j) % tokens.length]!, (id) => onEvent(i + j, id))),
    );
    streams.push(...opened);
  }
  return streams;
}
