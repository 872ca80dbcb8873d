import fr from '../../../locales/fr/messages.json' with { type: 'json' };
import en from '../../../locales/en/messages.json' with { type: 'json' };
import { formatMessage, renderNotice, renderReason, type Catalogue, type Locale, type Message, type MessageParams } from '../../contract/messages.ts';

const catalogues: Record<Locale, Catalogue> = { fr, en };

/** A notification's title and description in `locale`; a key the catalogue lacks shows as itself rather than nothing. */
export function noticeText(message: Message, locale: Locale): { title: string; description: string } {
  return renderNotice(catalogues[locale], message, locale) ?? { title: message.key, description: '' };
}

/** A ledger reason in `locale`. */
export function reasonText(message: Message, locale: Locale): string {
  return renderReason(catalogues[locale], message, locale) ?? message.key;
}

/**
 * A text of messages.json in both languages, as a notice's parameter: words of ours inside a notice
 * (why a server crashed) read in the reader's language, as staff's `{fr, en}` names do.
 */
export function bothLanguages(path: string, params: MessageParams = {}): { fr: string; en: string } {
  const one = (locale: Locale) => {
    let node: string | Catalogue | undefined = catalogues[locale];
    for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    if (typeof node !== 'string') throw new Error(`messages.json has no text at ${path}`);
    return formatMessage(node, params, locale);
  };
  return { fr: one('fr'), en: one('en') };
}

/** The locale a request's `locale` cookie names (the web app's choice), if any. */
export function cookieLocale(cookieHeader: string | undefined): Locale | undefined {
  const found = /(?:^|;\s*)locale=(fr|en)\b/.exec(cookieHeader ?? '')?.[1];
  return found === 'fr' || found === 'en' ? found : undefined;
}
