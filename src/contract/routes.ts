/**
 * The app's routes (docs/product.md, Routes), shared by the web router and the server, which answers 404 for
 * any other path that is not a content page. Each exists unprefixed (French), under /fr and /en.
 */
export const localePrefixes = ['', '/fr', '/en'] as const;

const publicRoutes = [
  '/',
  '/about',
  '/cgu',
  '/cgv',
  '/contact',
  '/legal',
  '/credits',
  '/stripe_result',
  '/mumble-redirect/:serverIp',
  '/jwt',
  '/lsg',
  '/products/:id',
  '/ranked',
  '/store',
  '/auth/callback',
] as const;

/**
 * The game page's tabs, each its own address under /dashboard/game/:id so it can be linked to and
 * reloaded: '' is the control panel, the others a part of the server's tooling.
 */
export const gameTabs = ['', 'console', 'settings', 'usage', 'backups', 'schedules', 'activity', 'sharing'] as const;

const dashboardRoutes = [
  '/dashboard',
  '/dashboard/account',
  '/dashboard/notifications',
  '/dashboard/creategame/:id',
  ...gameTabs.map((tab) => (tab ? `/dashboard/game/:id/${tab}` : '/dashboard/game/:id')),
  '/dashboard/products/:id',
  '/dashboard/profil',
  '/dashboard/ranked',
  '/dashboard/social',
  '/dashboard/store',
  '/dashboard/staff',
  '/dashboard/staff/*',
];

function matches(pattern: string, path: string): boolean {
  const p = pattern.split('/');
  const s = path.split('/');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '*') return s.length > i;
    if (s[i] === undefined) return false;
    if (p[i]!.startsWith(':')) {
      if (s[i] === '') return false;
      continue;
    }
    if (p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

/** The path without its locale prefix, and the locale the prefix names (if any). */
export function splitLocale(pathname: string): { locale: 'fr' | 'en' | null; path: string } {
  const m = /^\/(fr|en)(\/.*)?$/.exec(pathname);
  if (!m) return { locale: null, path: pathname };
  return { locale: m[1] as 'fr' | 'en', path: m[2] || '/' };
}

/** True when a path (with or without locale prefix) is one of the app's routes. */
export function isAppRoute(pathname: string): boolean {
  const path = splitLocale(pathname.replace(/\/+$/, '') || '/').path;
  return [...publicRoutes, ...dashboardRoutes].some((pattern) => matches(pattern, path));
}
