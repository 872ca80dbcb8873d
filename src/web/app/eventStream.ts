import { EventSourceParserStream } from 'eventsource-parser/stream';

/** One server-sent event as the stream delivers it. */
export interface StreamEvent {
  id: string;
  event: string;
  data: string;
}

/**
 * A fetch-based EventSource: unlike the browser's, it can send the bearer header. Any error or the
 * end of the stream closes it for good (docs/product.md, Notifications: no retry). Returns the function that closes it.
 */
export function openEventStream(url: string, token: string, onEvent: (e: StreamEvent) => void): () => void {
  const controller = new AbortController();
  void (async () => {
    try {
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: controller.signal });
      if (!res.ok || !res.body) return;
      // A reader, not `for await`: Safari before 18.4 cannot iterate a stream.
      const reader = res.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        onEvent({ id: value.id ?? '', event: value.event ?? 'message', data: value.data });
      }
    } catch {
      // Closed on purpose, or the network failed: either way the stream stays closed.
    } finally {
      controller.abort();
    }
  })();
  return () => controller.abort();
}
