import type { I18nProvider } from '@refinedev/core';
import i18n, { setLanguage, type Language } from './i18n.ts';

/**
 * Refine's translations on our i18next. Its own keys (`buttons.save`, `notifications.success`) and
 * the back office's (`promoCodes.fields.code`) live in the lazy `staff` namespace; until it loads,
 * as on the player's pages, Refine's English default stands.
 */
export const i18nProvider: I18nProvider = {
  translate: (key: string, options?: unknown, defaultMessage?: string) => {
    const fallback = typeof options === 'string' ? options : defaultMessage;
    const values = typeof options === 'object' && options !== null ? (options as Record<string, unknown>) : {};
    return i18n.t(key, { ns: ['staff', 'common'], ...values, defaultValue: fallback ?? key });
  },
  changeLocale: (locale: string) => setLanguage(locale as Language),
  getLocale: () => i18n.language,
};
