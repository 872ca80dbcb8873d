/** One server-sent event as the stream delivers it. */
export interface StreamEvent {
  id: string;
  event: string;
  data: string;
}

/**
 * A fetch-based EventSource: unlike the browser's, it can send the bearer header. Any error or the
 * end of the stream closes it for good (SPEC.md §8: no retry). Returns the function that closes it.
 */
export function openEventStream(url: string, token: string, onEvent: (e: StreamEvent) => void): () => void {
  const controller = new AbortController();
  void (async () => {
    try {
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: controller.signal });
      if (!res.ok || !res.body) return;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
          const parsed = parseBlock(block);
          if (parsed) onEvent(parsed);
        }
      }
    } catch {
      // Closed on purpose, or the network failed: either way the stream stays closed.
    } finally {
      controller.abort();
    }
  })();
  return () => controller.abort();
}

function parseBlock(block: string): StreamEvent | null {
  const event: StreamEvent = { id: '', event: 'message', data: '' };
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (!line || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') event.id = value;
    else if (field === 'event') event.event = value;
    else if (field === 'data') data.push(value);
  }
  if (!data.length) return null;
  event.data = data.join('\n');
  return event;
}
