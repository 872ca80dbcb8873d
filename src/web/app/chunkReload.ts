import { CHUNK_RELOAD_GUARD_MS } from './constants.ts';

const FLAG = 'chunkReloadAt';

/** True for the errors a browser gives when a lazy chunk of an older build is gone. */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|error loading dynamically|Failed to fetch/i.test(message);
}

/**
 * Reloads the page once to pick up the new build; a session flag valid 10 s stops a reload loop
 * when the chunk is really broken. Returns false when the guard forbids the reload.
 */
export function reloadForChunkError(): boolean {
  const last = Number(sessionStorage.getItem(FLAG) ?? 0);
  if (Date.now() - last < CHUNK_RELOAD_GUARD_MS) return false;
  sessionStorage.setItem(FLAG, String(Date.now()));
  location.reload();
  return true;
}
