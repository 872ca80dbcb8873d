import { describe, expect, it } from 'vitest';
import fr from '../../locales/fr/messages.json' with { type: 'json' };
import en from '../../locales/en/messages.json' with { type: 'json' };
import { formatMessage, renderNotice, renderReason, type Catalogue } from './messages.ts';

/** Every template of a catalogue, by its path. */
function templates(node: Catalogue, prefix = ''): Array<[string, string]> {
  return Object.entries(node).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : templates(v, `${prefix}${k}.`)));
}
const placeholders = (template: string) => [...template.matchAll(/\{\{\s*(\w+)\s*(?:,\s*(\w+)\s*)?\}\}/g)].map((m) => `${m[1]}${m[2] ? `,${m[2]}` : ''}`).sort();

describe('messages', () => {
  it('fills parameters, and dates in the reader’s words: in UTC, said so, on the server; in the reader’s zone on the page', () => {
    const params = { name: 'Castle', until: '2026-11-24T21:30:00.000Z' };
    expect(formatMessage('« {{name}} » jusqu’au {{until, datetime}}', params, 'fr')).toBe('« Castle » jusqu’au 24 novembre 2026 à 21:30 UTC');
    expect(formatMessage('"{{ name }}" until {{until, datetime}}', params, 'en')).toBe('"Castle" until 24 November 2026 at 21:30 UTC');
    expect(formatMessage('{{until, date}}', params, 'en')).toBe('24 November 2026');
    // Read in Paris, and in New York where it is still the afternoon: no zone named, it is the reader's.
    expect(formatMessage('jusqu’au {{until, datetime}}', params, 'fr', { timeZone: 'Europe/Paris' })).toBe('jusqu’au 24 novembre 2026 à 22:30');
    expect(formatMessage('until {{until, datetime}}', params, 'en', { timeZone: 'America/New_York' })).toBe('until 24 November 2026 at 16:30');
    // A missing parameter is left empty, a bad date shown as given.
    expect(formatMessage('[{{missing}}] {{name, datetime}}', params, 'en')).toBe('[] Castle');
  });

  it('says how far away a time is as people do, not in seconds', () => {
    const now = Date.parse('2026-11-24T21:30:00.000Z');
    const said = (template: string, params: Record<string, string | number>, locale: 'fr' | 'en') => formatMessage(template, params, locale, { now }).replace(/\s/g, ' ');
    expect(said('({{seconds, relative}})', { seconds: 597 }, 'fr')).toBe('(dans 10 min)');
    expect(said('({{seconds, relative}})', { seconds: 597 }, 'en')).toBe('(in 10 min)');
    expect(said('{{seconds, relative}}', { seconds: 42 }, 'fr')).toBe('dans 42 s');
    expect(said('{{at, relative}}', { at: '2026-11-24T23:30:00.000Z' }, 'en')).toBe('in 2 hours');
    expect(said('{{at, relative}}', { at: '2026-11-21T21:30:00.000Z' }, 'fr')).toBe('il y a 3 jours');
  });

  it('renders notices and reasons, and nothing for a key the catalogue lacks', () => {
    expect(renderNotice(en, { key: 'friendRequest.received', params: { name: 'alex' } }, 'en')).toEqual({ title: 'New friend request', description: 'alex wants to be your friend.' });
    expect(renderNotice(fr, { key: 'text', params: { title: 'Ancien', description: 'texte' } }, 'fr')).toEqual({ title: 'Ancien', description: 'texte' });
    expect(renderReason(fr, { key: 'pack', params: { credits: 550 } }, 'fr')).toBe('Pack de 550 crédits');
    expect(renderNotice(en, { key: 'friendRequest', params: {} }, 'en')).toBeUndefined();
    expect(renderNotice(en, { key: 'nope.never', params: {} }, 'en')).toBeUndefined();
    expect(renderReason(en, { key: 'nope', params: {} }, 'en')).toBeUndefined();
  });

  it('names a package in the reader’s language, and still shows a name stored as plain text', () => {
    const params = { name: 'Castle', package: { fr: 'Petit', en: 'Small' }, days: 30 };
    expect(renderReason(en, { key: 'gameCharge', params }, 'en')).toBe('Game "Castle": Small, first 30 days');
    expect(renderReason(fr, { key: 'gameCharge', params }, 'fr')).toBe('Serveur « Castle » : Petit, 30 premiers jours');
    // A ledger line written before package names had two languages.
    expect(renderReason(en, { key: 'gameCharge', params: { ...params, package: 'Petit' } }, 'en')).toBe('Game "Castle": Petit, first 30 days');
    expect(renderNotice(en, { key: 'text', params: { title: { fr: 'Titre', en: 'Title' }, description: 'x' } }, 'en')).toEqual({ title: 'Title', description: 'x' });
  });

  it('says one day, and several days, in each language’s plural forms', () => {
    const charge = (days: number, locale: 'fr' | 'en') =>
      renderReason(locale === 'fr' ? fr : en, { key: 'gameCharge', params: { name: 'Essai', package: { fr: 'Essai', en: 'Trial' }, days } }, locale);
    expect(charge(1, 'fr')).toBe('Serveur « Essai » : Essai, premier jour');
    expect(charge(30, 'fr')).toBe('Serveur « Essai » : Essai, 30 premiers jours');
    expect(charge(1, 'en')).toBe('Game "Essai": Trial, first day');
    expect(charge(2, 'en')).toBe('Game "Essai": Trial, first 2 days');
    const renewal = { key: 'gameRenewal', params: { name: 'Castle', days: 1, until: '2026-11-24T21:30:00.000Z' } };
    expect(renderReason(fr, renewal, 'fr')).toBe("Serveur « Castle » : renouvellement, 1 jour jusqu'au 24 novembre 2026 à 21:30 UTC");
    const extended = (days: number) => renderNotice(fr, { key: 'game.extendedByStaff', params: { name: 'Castle', days, until: '2026-11-24T21:30:00.000Z', reason: 'Geste' } }, 'fr')?.title;
    expect(extended(1)).toBe('1 jour offert pour « Castle »');
    expect(extended(7)).toBe('7 jours offerts pour « Castle »');
    expect(renderNotice(en, { key: 'renewal.due', params: { name: 'Castle', amount: 5, days: 1, due: '2026-11-24T21:30:00.000Z' } }, 'en')?.description).toContain('for 1 more day.');
  });

  it('uses the same parameters, formatted alike, in French and in English', () => {
    const english = new Map(templates(en));
    for (const [path, template] of templates(fr)) expect(placeholders(english.get(path) ?? ''), path).toEqual(placeholders(template));
  });
});
