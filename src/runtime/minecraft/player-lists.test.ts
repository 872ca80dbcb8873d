import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { offlineUuid, readList, syncList, writeList, newEntry } from './player-lists.ts';

const require = createRequire(import.meta.url);
const { nameToMcOfflineUUID } = require('minecraft-protocol/src/datatypes/uuid.js') as { nameToMcOfflineUUID(name: string): string };

describe('player lists', () => {
  it('gives the offline-mode UUID servers give', () => {
    for (const name of ['Notch', 'Builder', 'a_b_c']) expect(offlineUuid(name)).toBe(nameToMcOfflineUUID(name));
  });

  it('writes vanilla formats and keeps known entries when synced again', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-lists-'));
    try {
      writeList(dir, 'banned', [newEntry('banned', 'Griefer', 'Lava everywhere')]);
      syncList(dir, 'banned', ['griefer', 'Other', 'Other']);
      const banned = JSON.parse(fs.readFileSync(path.join(dir, 'banned-players.json'), 'utf8'));
      expect(banned).toEqual([
        { uuid: offlineUuid('Griefer'), name: 'Griefer', created: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000$/), source: 'Server', expires: 'forever', reason: 'Lava everywhere' },
        expect.objectContaining({ name: 'Other', reason: 'Banned by an operator.' }),
      ]);
      syncList(dir, 'ops', ['Admin']);
      expect(readList(dir, 'ops')).toEqual([{ uuid: offlineUuid('Admin'), name: 'Admin', level: 4, bypassesPlayerLimit: false }]);
      expect(readList(dir, 'whitelist')).toEqual([]);
      fs.writeFileSync(path.join(dir, 'whitelist.json'), '{}');
      expect(() => readList(dir, 'whitelist')).toThrow('whitelist.json is not a JSON array');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
