import { SseParserStream } from '../../../app/eventStream.ts';
import { CONSOLE_EMPTY_EVENT, CONSOLE_LINE_EVENT, type ConsoleLine } from '../../../../contract/console.ts';

export interface ConsoleStreamHandlers {
  line(line: ConsoleLine): void;
  neverStarted(): void;
  /** Connected or not; `refused` when the game is not the user's (no retry then). */
  state(state: 'open' | 'reconnecting' | 'refused'): void;
}

const RETRY_MS = 2000;

/**
 * Follows a game's console stream with the bearer token, and reconnects after a dropped connection
 * with Last-Event-ID, so the lines resume exactly after the last one received. Returns what closes it.
 */
export function followConsole(gameId: string, token: () => string | undefined, handlers: ConsoleStreamHandlers): () => void {
  const controller = new AbortController();
  let lastSeq = 0;
  void (async () => {
    while (!controller.signal.aborted) {
      const bearer = token();
      // The session is still being restored (a page loaded at this address): its token comes soon.
      if (!bearer) {
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      try {
        const headers: Record<string, string> = { authorization: `Bearer ${bearer}`, accept: 'text/event-stream' };
        if (lastSeq > 0) headers['last-event-id'] = String(lastSeq);
        const res = await fetch(`/v1/game/${encodeURIComponent(gameId)}/console/stream`, { headers, signal: controller.signal });
        // Not this user's game, or no such game: asking again changes nothing. A refused token
        // (401, expired) is asked again below with the session's next one.
        if (res.status === 404 || res.status === 403) {
          handlers.state('refused');
          return;
        }
        if (!res.ok || !res.body) throw new Error(`console stream answered ${res.status}`);
        handlers.state('open');
        // A reader, not `for await`: Safari before 18.4 cannot iterate a stream.
        const reader = res.body.pipeThrough(new TextDecoderStream()).pipeThrough(new SseParserStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          if (value.event === CONSOLE_LINE_EVENT) {
            const line = JSON.parse(value.data) as ConsoleLine;
            if (line.seq <= lastSeq) continue;
            lastSeq = line.seq;
            handlers.line(line);
          } else if (value.event === CONSOLE_EMPTY_EVENT) handlers.neverStarted();
        }
      } catch {
        // The network dropped or the page closed it: asked again below unless closed.
      }
      if (controller.signal.aborted) return;
      handlers.state('reconnecting');
      await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  })();
  return () => controller.abort();
}
