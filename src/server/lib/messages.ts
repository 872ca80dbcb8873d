import fr from '../../../locales/fr/messages.json' with { type: 'json' };
import en from '../../../locales/en/messages.json' with { type: 'json' };
import { renderNotice, renderReason, type Catalogue, type Locale, type Message } from '../../contract/messages.ts';

const catalogues: Record<Locale, Catalogue> = { fr, en };

/** A notification's title and description in `locale`; a key the catalogue lacks shows as itself rather than nothing. */
export function noticeText(message: Message, locale: Locale): { title: string; description: string } {
  return renderNotice(catalogues[locale], message, locale) ?? { title: message.key, description: '' };
}

/** A ledger reason in `locale`. */
export function reasonText(message: Message, locale: Locale): string {
  return renderReason(catalogues[locale], message, locale) ?? message.key;
}

/** The locale a request's `locale` cookie names (the web app's choice), if any. */
export function cookieLocale(cookieHeader: string | undefined): Locale | undefined {
  const found = /(?:^|;\s*)locale=(fr|en)\b/.exec(cookieHeader ?? '')?.[1];
  return found === 'fr' || found === 'en' ? found : undefined;
}
