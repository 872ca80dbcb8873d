import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MC_NAME_PATTERN } from '../../contract/values.ts';

/**
 * The three player lists of a game, in vanilla's file formats (`whitelist.json`, `ops.json`,
 * `banned-players.json`), so a vanilla or Paper jar started on the same folder reads them as its own.
 */
interface PlayerEntry {
  uuid: string;
  name: string;
}
interface OpEntry extends PlayerEntry {
  level: number;
  bypassesPlayerLimit: boolean;
}
interface BanEntry extends PlayerEntry {
  created: string;
  source: string;
  expires: string;
  reason: string;
}

const listFiles = { whitelist: 'whitelist.json', ops: 'ops.json', banned: 'banned-players.json' } as const;
export type ListName = keyof typeof listFiles;
type EntryOf<L extends ListName> = L extends 'ops' ? OpEntry : L extends 'banned' ? BanEntry : PlayerEntry;

export const minecraftName = new RegExp(MC_NAME_PATTERN);

/** The UUID an offline-mode server gives a name (Java's `UUID.nameUUIDFromBytes("OfflinePlayer:" + name)`, a v3 UUID); the offline resolver gives players the same one. */
export function offlineUuid(name: string): string {
  const hash = crypto.createHash('md5').update(`OfflinePlayer:${name}`, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x30;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Vanilla's date format in ban lists: `2024-01-31 12:00:00 +0000`. */
function vanillaDate(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} +0000`;
}

export function newEntry<L extends ListName>(list: L, name: string, reason?: string, source = 'Server'): EntryOf<L> {
  const base = { uuid: offlineUuid(name), name };
  if (list === 'ops') return { ...base, level: 4, bypassesPlayerLimit: false } as EntryOf<L>;
  if (list === 'banned') {
    return { ...base, created: vanillaDate(new Date()), source, expires: 'forever', reason: reason ?? 'Banned by an operator.' } as EntryOf<L>;
  }
  return base as EntryOf<L>;
}

export function readList<L extends ListName>(dir: string, list: L): Array<EntryOf<L>> {
  const file = path.join(dir, listFiles[list]);
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const parsed: unknown = JSON.parse(raw);
  if (!Array.isArray(parsed)) throw new Error(`${file} is not a JSON array`);
  return parsed.filter((e): e is EntryOf<L> => typeof e?.name === 'string' && typeof e?.uuid === 'string');
}

/** Written through a temporary file and a rename, so a crash never leaves half a list. */
export function writeList<L extends ListName>(dir: string, list: L, entries: Array<EntryOf<L>>): void {
  const file = path.join(dir, listFiles[list]);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(entries, null, 2)}\n`);
  fs.renameSync(tmp, file);
}

/**
 * Replaces a list by the names the platform holds, keeping what the server knew of those names
 * (a ban's reason and date, say), so writing the same names again changes nothing.
 */
export function syncList(dir: string, list: ListName, names: string[]): void {
  const known = new Map(readList(dir, list).map((e) => [e.name.toLowerCase(), e]));
  const unique = [...new Map(names.map((n) => [n.toLowerCase(), n])).values()];
  writeList(
    dir,
    list,
    unique.map((n) => known.get(n.toLowerCase()) ?? newEntry(list, n)),
  );
}
