import { ApiError, errorText } from '../../app/api.ts';

/** A price in the reader's language: 4,99 € in French, €4.99 in English. */
export function formatMoney(cents: number, currency: string, lang: string): string {
  return new Intl.NumberFormat(lang === 'en' ? 'en-GB' : 'fr-FR', { style: 'currency', currency }).format(cents / 100);
}

// The reasons a player can act on get words of their own, found from a payment's failureReason or
// the API's error code (payments.failure.declined, ...), the same in every language.
const cardReasons: Array<[RegExp, string]> = [
  [/declin/i, 'card.declined'],
  [/insufficient/i, 'card.insufficient'],
  [/expired/i, 'card.expired'],
];

/** What to tell a player whose card payment failed, from the API's error or a payment's failureReason. */
export function cardFailureText(t: (key: string) => string, failure: unknown): string {
  const reason = typeof failure === 'string' ? failure : failure instanceof ApiError ? (failure.problem?.code ?? '') : '';
  const known = cardReasons.find(([pattern]) => pattern.test(reason));
  if (known && (typeof failure === 'string' || (failure instanceof ApiError && failure.status === 402))) return t(known[1]);
  // A payment's failureReason is a code (processing_error, other): no use showing it raw.
  if (typeof failure === 'string') return t('card.generic');
  return `${t('card.failed')} ${errorText(failure)}`;
}

/** Only a path of this site may be a "back" target, never another origin (`//host`). */
export function safeBackPath(back: string | null): string | null {
  return back && back.startsWith('/') && !back.startsWith('//') ? back : null;
}

/** A day in the reader's language (a promo code's last day). */
export function formatDay(iso: string, lang: string): string {
  return new Date(iso).toLocaleDateString(lang === 'en' ? 'en-GB' : 'fr-FR', { dateStyle: 'long' });
}
