import { useTranslation } from 'react-i18next';
import type { LocalizedText } from '../../contract/games.ts';

/**
 * A date as the page's language writes it: an instant with its time ("24 nov. 2026, 14:05"), a
 * calendar day as front matter gives it, YYYY-MM-DD, alone ("12 décembre 2026", "December 12, 2026");
 * empty when there is none or it is not a date.
 */
export function formatDate(value: unknown, lang: string): string {
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) return '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(value).toLocaleDateString(lang, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  return new Date(value).toLocaleString(lang === 'en' ? 'en-GB' : 'fr-FR', { dateStyle: 'medium', timeStyle: 'short' });
}

/** The text of a {fr, en} pair in the current language. */
export function useLocalized() {
  const { i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'fr';
  return (text: LocalizedText) => text[lang] || text.fr;
}

/** RAM in the current language's units (Go/Mo, GB/MB). */
export function useFormatRam() {
  const { t, i18n } = useTranslation('games');
  return (mb: number) => (mb >= 1024 ? t('units.gb', { value: (mb / 1024).toLocaleString(i18n.language, { maximumFractionDigits: 1 }) }) : t('units.mb', { value: mb }));
}
