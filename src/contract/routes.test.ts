import { describe, expect, it } from 'vitest';
import { isAppRoute, splitLocale } from './routes.ts';

describe('app routes', () => {
  it.each(['/', '/fr', '/en/', '/about', '/en/cgu', '/fr/products/12', '/dashboard', '/en/dashboard/game/abc', '/mumble-redirect/1.2.3.4:25565', '/dashboard/staff/pricing'])('%s is a route', (path) =>
    expect(isAppRoute(path)).toBe(true),
  );
  it.each(['/nope', '/en/nope', '/products', '/products/1/extra', '/dashboard/unknown', '/de/about', '/dashboardx'])('%s is not', (path) => expect(isAppRoute(path)).toBe(false));
  it('splits the locale prefix', () => {
    expect(splitLocale('/en/store')).toEqual({ locale: 'en', path: '/store' });
    expect(splitLocale('/fr')).toEqual({ locale: 'fr', path: '/' });
    expect(splitLocale('/french')).toEqual({ locale: null, path: '/french' });
  });
});
