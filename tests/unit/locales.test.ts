import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every UI string exists in both languages: a key in one file and not the other fails. */
const root = path.join(import.meta.dirname, '..', '..', 'locales');

function keys(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

// Plural forms differ by language (French has no _zero, English may): compare the base key.
const base = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');

describe('locales', () => {
  const files = fs.readdirSync(path.join(root, 'fr')).filter((f) => f.endsWith('.json'));
  it('has the same files in fr and en', () => {
    expect(fs.readdirSync(path.join(root, 'en')).sort()).toEqual(files.sort());
  });
  for (const file of files) {
    it(`${file} has the same keys in fr and en`, () => {
      const read = (lang: string) => new Set(keys(JSON.parse(fs.readFileSync(path.join(root, lang, file), 'utf8'))).map(base));
      const fr = read('fr');
      const en = read('en');
      expect(
        [...fr].filter((k) => !en.has(k)),
        'missing in en',
      ).toEqual([]);
      expect(
        [...en].filter((k) => !fr.has(k)),
        'missing in fr',
      ).toEqual([]);
    });
  }
});
