import { createContext, useContext, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { splitLocale } from '../../contract/routes.ts';
import { detectLanguage, saveLanguage, setLanguage, type Language } from './i18n.ts';

/** The locale prefix of the current route tree: '' (French by default, or detected), '/fr' or '/en'. */
const PrefixContext = createContext<'' | '/fr' | '/en'>('');

export function LocaleRoot({ prefix, children }: { prefix: '' | '/fr' | '/en'; children: ReactNode }) {
  // The prefix decides; without one, the cookie or the browser does (docs/product.md, Routes).
  const lang: Language = prefix ? (prefix.slice(1) as Language) : detectLanguage();
  setLanguage(lang);
  return <PrefixContext.Provider value={prefix}>{children}</PrefixContext.Provider>;
}

/** Turns an app path into the same path under the current locale prefix. */
export function useLocalePath() {
  const prefix = useContext(PrefixContext);
  return (path: string) => (prefix && path.startsWith('/') ? `${prefix}${path === '/' ? '' : path}` : path);
}

/** The current path without its locale prefix. */
export function useBarePath(): string {
  return splitLocale(useLocation().pathname).path;
}

/** Switches language and keeps the page: /en/store ↔ /fr/store; remembers the choice. */
export function useSwitchLanguage() {
  const navigate = useNavigate();
  const location = useLocation();
  return (lang: Language) => {
    saveLanguage(lang);
    const { path } = splitLocale(location.pathname);
    navigate(`/${lang}${path === '/' ? '' : path}${location.search}${location.hash}`);
  };
}
