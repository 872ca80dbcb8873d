import { useTranslation } from 'react-i18next';
import { renderNotice, renderReason, type Catalogue, type Locale, type MessageParams } from '../../contract/messages.ts';
import type { LedgerEntry } from '../../contract/credits.ts';
import type { NotificationData } from '../../contract/notifications.ts';

/**
 * Notices and ledger reasons in the language on screen: the API sends each one's message key and
 * parameters beside its text (rendered in the user's saved locale), and they are rendered here
 * from the same catalogues, locales/{fr,en}/messages.json, so switching language re-renders them, and
 * their times read in the reader's zone.
 * A key this build does not know (a newer server) shows the API's text.
 */
/** The browser's own zone: the API's texts give times in UTC, the page in the reader's. */
const inReadersZone = { timeZone: undefined };

export function useMessages() {
  // Suspends until the namespace is loaded: it comes with the pages that show messages.
  const { i18n } = useTranslation('messages');
  const locale: Locale = i18n.language === 'en' ? 'en' : 'fr';
  const catalogue = i18n.getResourceBundle(locale, 'messages') as Catalogue | undefined;
  return {
    notice: (data: NotificationData): { title: string; description: string } =>
      (catalogue && data.key && renderNotice(catalogue, { key: data.key, params: data.params as MessageParams }, locale, inReadersZone)) || { title: data.title, description: data.description },
    reason: (entry: Pick<LedgerEntry, 'reason' | 'reasonKey' | 'reasonParams'>): string =>
      (catalogue && entry.reasonKey && renderReason(catalogue, { key: entry.reasonKey, params: entry.reasonParams as MessageParams }, locale, inReadersZone)) || entry.reason,
  };
}
