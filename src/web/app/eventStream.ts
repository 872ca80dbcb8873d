/** One server-sent event as the stream delivers it. */
export interface StreamEvent {
  id: string;
  event: string;
  data: string;
}

/**
 * Text in, events out, as the HTML standard's event-stream parsing says: lines end in CRLF, LF or
 * CR (a CR at a chunk's end waits for the next, which may start with its LF), `:` starts a
 * comment, `data` lines join with LF, a blank line ends the event, and one without data is
 * dropped. Only what our API sends is kept: `id` as sent in that event, `retry` ignored. A few
 * lines of our own rather than a library, for every signed-in page downloads it.
 */
export class SseParserStream extends TransformStream<string, StreamEvent> {
  constructor() {
    let pending = '';
    let event: StreamEvent = { id: '', event: 'message', data: '' };
    let hasData = false;
    const line = (text: string, out: TransformStreamDefaultController<StreamEvent>) => {
      if (text === '') {
        if (hasData) out.enqueue({ ...event, data: event.data.slice(0, -1) });
        event = { id: '', event: 'message', data: '' };
        hasData = false;
        return;
      }
      if (text.startsWith(':')) return;
      const colon = text.indexOf(':');
      const field = colon < 0 ? text : text.slice(0, colon);
      const value = colon < 0 ? '' : text.slice(text[colon + 1] === ' ' ? colon + 2 : colon + 1);
      if (field === 'data') {
        event.data += `${value}\n`;
        hasData = true;
      } else if (field === 'event') event.event = value;
      else if (field === 'id' && !value.includes('\0')) event.id = value;
    };
    const lines = (out: TransformStreamDefaultController<StreamEvent>, flush: boolean) => {
      for (;;) {
        const end = /\r\n|\n|\r/.exec(pending);
        // A lone CR at the end may be the first half of a CRLF.
        if (!end || (!flush && end[0] === '\r' && end.index === pending.length - 1)) return;
        line(pending.slice(0, end.index), out);
        pending = pending.slice(end.index + end[0].length);
      }
    };
    super({
      transform(chunk, out) {
        pending += chunk;
        lines(out, false);
      },
      flush(out) {
        lines(out, true);
      },
    });
  }
}

/**
 * A fetch-based EventSource: unlike the browser's, it can send the bearer header. Any error or the
 * end of the stream closes it for good (docs/product.md, Notifications: no retry). `onOpen` is called
 * once, when the server answered (it listens for the user from then on) or the stream could not open:
 * what was sent before is read then, so nothing falls between the read and the stream. Returns the
 * function that closes it.
 */
export function openEventStream(url: string, token: string, onEvent: (e: StreamEvent) => void, onOpen: () => void = () => {}): () => void {
  const controller = new AbortController();
  let opened = false;
  const open = () => {
    if (opened) return;
    opened = true;
    onOpen();
  };
  void (async () => {
    try {
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: controller.signal });
      open();
      if (!res.ok || !res.body) return;
      // A reader, not `for await`: Safari before 18.4 cannot iterate a stream.
      const reader = res.body.pipeThrough(new TextDecoderStream()).pipeThrough(new SseParserStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        onEvent(value);
      }
    } catch {
      // Closed on purpose, or the network failed: either way the stream stays closed.
    } finally {
      if (!controller.signal.aborted) open();
      controller.abort();
    }
  })();
  return () => controller.abort();
}
