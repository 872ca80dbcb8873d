import { useTranslation } from 'react-i18next';
import type { LocalizedText } from '../../contract/games.ts';

/** A date and time as the page's language writes them ("24 nov. 2026, 14:05"). */
export function formatDate(iso: string, lang: string) {
  return new Date(iso).toLocaleString(lang === 'en' ? 'en-GB' : 'fr-FR', { dateStyle: 'medium', timeStyle: 'short' });
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
  return (mb: number) =>
    mb >= 1024 ? t('units.gb', { value: (mb / 1024).toLocaleString(i18n.language, { maximumFractionDigits: 1 }) }) : t('units.mb', { value: mb });
}
