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

/**
 * A number grouped as the page's language writes it ("1 300", "1,300"). Data grids' number columns
 * need it: left alone they group in the browser's language, whatever the page's.
 */
export function formatNumber(value: number, lang: string): string {
  return value.toLocaleString(lang === 'en' ? 'en-GB' : 'fr-FR');
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

/** A size in bytes as the page's language writes it, in binary multiples ("12,3 Mo", "12.3 MB"); empty when unknown. */
export function formatBytes(bytes: number | null, lang: string): string {
  if (bytes === null) return '';
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const locale = lang === 'en' ? 'en-GB' : 'fr-FR';
  // Intl's English short form of a plain byte count is "496 byte": B, as for the multiples.
  if (unit === 0) return `${value.toLocaleString(locale)}\u00a0${lang === 'en' ? 'B' : 'o'}`;
  return new Intl.NumberFormat(locale, { style: 'unit', unit: units[unit], unitDisplay: 'short', maximumFractionDigits: 1 }).format(value);
}
