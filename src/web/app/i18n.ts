import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LOCALE_COOKIE, LOCALE_COOKIE_DAYS } from './constants.ts';
import { splitLocale } from '../../contract/routes.ts';
import type { Problem } from '../../contract/common.ts';
import { setProblemWording } from './api.ts';

export const languages = ['fr', 'en'] as const;
export type Language = (typeof languages)[number];

// Every locales/{lang}/{area}.json is a namespace; identity.json belongs to the server's sign-in
// pages. The shell's and the public pages' strings in French (the default, and every language's
// fallback) come with the app; the others, and English, load when needed: English ones at the
// start, beside the app's settings (`ready`), so a first visit downloads one language only.
const eager = import.meta.glob<Record<string, unknown>>(['../../../locales/fr/common.json', '../../../locales/fr/site.json'], { eager: true, import: 'default' });
const lazy = import.meta.glob<Record<string, unknown>>(['../../../locales/*/*.json', '!../../../locales/*/identity.json', '!../../../locales/fr/common.json', '!../../../locales/fr/site.json'], {
  import: 'default',
});
const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [file, strings] of Object.entries(eager)) {
  const [, lang, ns] = /locales\/(\w+)\/(\w+)\.json$/.exec(file)!;
  (resources[lang!] ??= {})[ns!] = strings;
}

/** Loads a namespace not bundled with the app; the page asking for it suspends meanwhile. */
const lazyNamespaces: BackendModule = {
  type: 'backend',
  init() {},
  read(lang, ns, done) {
    const load = lazy[`../../../locales/${lang}/${ns}.json`];
    if (!load) return done(null, {});
    load().then(
      (strings) => done(null, strings),
      (err: Error) => done(err, null),
    );
  },
};

function cookieLanguage(): Language | null {
  const m = /(?:^|;\s*)locale=(fr|en)\b/.exec(document.cookie);
  return (m?.[1] as Language | undefined) ?? null;
}

/** Locale when the path has no prefix: the cookie, else the browser's languages, else French. */
export function detectLanguage(): Language {
  const cookie = cookieLanguage();
  if (cookie) return cookie;
  for (const l of navigator.languages ?? [navigator.language]) {
    const short = l.slice(0, 2).toLowerCase();
    if (short === 'fr' || short === 'en') return short;
  }
  return 'fr';
}

/** Remembers an explicit choice for 365 days (SameSite=Lax). */
export function saveLanguage(lang: Language) {
  document.cookie = `${LOCALE_COOKIE}=${lang}; Max-Age=${LOCALE_COOKIE_DAYS * 86400}; Path=/; SameSite=Lax`;
}

export function setLanguage(lang: Language) {
  if (i18n.language !== lang) void i18n.changeLanguage(lang);
  document.documentElement.lang = lang;
}

/** Resolves once the language's shell and public strings are there: the app renders after it. */
export const ready = i18n
  .use(lazyNamespaces)
  .use(initReactI18next)
  .init({
    resources,
    partialBundledLanguages: true,
    ns: ['common', 'site'],
    // The page's own language from the start, so it never shows in another while its strings load.
    lng: splitLocale(location.pathname).locale ?? detectLanguage(),
    fallbackLng: 'fr',
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
  })
  .then(() => {
    document.documentElement.lang = i18n.language;
  });

/**
 * The API words a problem's detail in UTC, not knowing where its reader is: a text with times in it
 * ("annoncé le …, de nouveau le …, dans 6 min") is worded again here from its key and parameters, in the
 * language on screen and the reader's own zone. Any other detail, or when the catalogue cannot load, is the API's.
 */
async function inReadersWords(problem: Problem): Promise<Problem> {
  if (!problem.code || !problem.params) return problem;
  try {
    await i18n.loadNamespaces('errors');
  } catch {
    return problem;
  }
  const lang = i18n.language === 'en' ? 'en' : 'fr';
  const template: unknown = i18n.getResource(lang, 'errors', problem.code);
  if (typeof template !== 'string' || !/\{\{\s*\w+\s*,\s*(datetime|date|relative)\s*\}\}/.test(template)) return problem;
  // The message formatter is loaded only for such a text: the first page stays light without it.
  const { formatMessage } = await import('../../contract/messages.ts');
  return { ...problem, detail: formatMessage(template, problem.params, lang, { timeZone: undefined }) };
}
setProblemWording(inReadersWords);

export default i18n;
