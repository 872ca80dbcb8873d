/**
 * Where world backups live: a folder on this machine (the embedded default) or an S3-compatible
 * bucket (production). Both implement the same interface, so the backups module never knows which.
 */

import type { ObjectLocation } from '../../runtime/driver.ts';

/** Where something outside the API process reads or writes an object: the drivers' own type, since they hand it to the game's host. */
export type { ObjectLocation };

export interface ObjectStore {
  readonly kind: 'local' | 's3';
  /** Streams `body` into the object `key` (multipart on S3: memory stays bounded, never the whole body). Resolves with its size and sha256 (hex). A failure leaves no object under `key`. */
  put(key: string, body: NodeJS.ReadableStream): Promise<{ sizeBytes: number; sha256: string }>;
  /** Size of the object, or null when there is none. */
  stat(key: string): Promise<{ sizeBytes: number } | null>;
  /** Streams the object or a byte range of it (inclusive `end`, as HTTP Range). Rejects with ObjectNotFoundError when absent. */
  read(key: string, range?: { start: number; end: number }): Promise<NodeJS.ReadableStream>;
  /** Where a writer outside this process (the game's launcher, a pod) puts the object `key`: local → a temp file path it must write then call `commitWrite`; s3 → a presigned PUT URL valid `expiresSec`. */
  writeLocation(key: string, expiresSec: number): Promise<ObjectLocation>;
  /** Local: moves the written temp file into place (atomic rename); s3: no-op. Returns size. */
  commitWrite(key: string, location: ObjectLocation): Promise<{ sizeBytes: number }>;
  /** Where a reader outside this process reads `key`: a file path, or a presigned GET URL. */
  readLocation(key: string, expiresSec: number): Promise<ObjectLocation>;
  /** A browser download URL for S3 (presigned GET with response-content-disposition attachment; filename), or null for local (the API serves it). */
  downloadUrl(key: string, filename: string, expiresSec: number): Promise<string | null>;
  /** Idempotent: deleting an absent object succeeds. */
  delete(key: string): Promise<void>;
  /**
   * Deletes the object and whatever an unfinished write of it left, which no quota counts: locally
   * its `.partial` temp files (a writer killed half-way leaves one, as big as what it wrote), on S3
   * its multipart uploads, aborted (their parts are stored and billed until then). Idempotent.
   */
  discard(key: string): Promise<void>;
  /** Keys under a prefix (for cleanup of partial objects). */
  list(prefix: string): Promise<string[]>;
}

export class ObjectNotFoundError extends Error {
  constructor(key: string) {
    super(`No object "${key}"`);
    this.name = 'ObjectNotFoundError';
  }
}

class InvalidObjectKeyError extends Error {
  constructor(key: string) {
    super(`Invalid object key "${key}": expected segments of letters, digits, "_", "." or "-" joined by "/", no "..", not absolute, not ending in ".partial"`);
    this.name = 'InvalidObjectKeyError';
  }
}

/**
 * Checked by both stores, so a key that works locally works on S3 and the other way round, and no
 * key (from a game name, a date) can reach outside the local root or make an odd S3 URL. `.partial`
 * ends the local store's temp files, so no key may end so.
 */
export function checkKey(key: string): void {
  if (key.length === 0 || key.length > 512 || !/^[A-Za-z0-9/_.-]+$/.test(key) || key.startsWith('/') || key.endsWith('/') || key.endsWith('.partial')) {
    throw new InvalidObjectKeyError(key);
  }
  if (key.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) throw new InvalidObjectKeyError(key);
}

/** Prefixes may end with "/" or be empty (everything); otherwise the same characters as keys. */
export function checkPrefix(prefix: string): void {
  if (prefix === '') return;
  checkKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
}

/** A range must start at 0 or later and end at or after its start; whether it fits the object is the store's to say. */
export function checkRange(range: { start: number; end: number }): void {
  if (!Number.isSafeInteger(range.start) || !Number.isSafeInteger(range.end) || range.start < 0 || range.end < range.start) {
    throw new RangeError(`Invalid range ${range.start}-${range.end}: expected 0 <= start <= end`);
  }
}

/** Content-Disposition for a download: ASCII fallback plus RFC 5987 form, so any game name survives. */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
