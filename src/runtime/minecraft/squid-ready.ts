import { once, type EventEmitter } from 'node:events';

/**
 * flying-squid gives its plugins and its listening socket 5 s to be ready and leaves the timeout's
 * rejection unhandled: on a busy machine (a first world generated while other servers start) the
 * process then ended with code 1 before any player could join, though nothing was wrong. Readiness
 * is decided here instead, with the launcher's own bound (`waitForReady`), and that one rejection
 * is let go; any other unhandled rejection still ends the process, as Node's default does.
 */
export function readyInItsOwnTime<S>(create: () => S): S {
  process.on('unhandledRejection', (reason) => {
    if (reason instanceof Error && /^Timeout waiting for '(pluginsReady|listening)' event$/.test(reason.message)) return;
    console.error('unhandled rejection:', reason);
    process.exit(1);
  });
  const serv = create();
  // flying-squid's server is an EventEmitter with `isReady`, which its `waitForReady` reads.
  const emitter = serv as unknown as EventEmitter & { isReady?: boolean };
  // Both are emitted later than now: the plugins load and the socket binds asynchronously.
  void Promise.all([once(emitter, 'pluginsReady'), once(emitter, 'listening')]).then(() => {
    // flying-squid's own chain, when its 5 s were enough, got there first and said so already.
    if (emitter.isReady) return;
    emitter.isReady = true;
    emitter.emit('ready');
  });
  return serv;
}
