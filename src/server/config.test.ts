import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('runs everything embedded by default', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({ port: 8080, publicUrl: 'http://localhost:8080', dataDir: '/srv/app/data', databaseUrl: undefined });
    expect(config.oidc).toMatchObject({ issuer: 'http://localhost:8080/oidc', embedded: true, clientId: 'web', audience: 'api', keysFile: '/srv/app/data/oidc-keys.json' });
    expect(config.internalToken).toBeUndefined();
  });

  it('switches to PostgreSQL and Keycloak by configuration alone', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/app', OIDC_ISSUER: 'https://sso.example.com/realms/blockhost/' });
    expect(config.databaseUrl).toBe('postgres://u@db:5432/app');
    expect(config.oidc).toMatchObject({ issuer: 'https://sso.example.com/realms/blockhost', embedded: false });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT="eighty" is invalid: expected a whole number from 0 to 65535'],
    [{ PORT: '70000' }, 'PORT="70000" is invalid'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL="mysql://x" is invalid: expected a URL starting with postgres:// or postgresql://'],
    [{ OIDC_ISSUER: 'not a url' }, 'OIDC_ISSUER="not a url" is invalid: expected an absolute URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL="loud" is invalid: expected one of fatal, error, warn, info, debug, trace, silent'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY="maybe" is invalid: expected true or false'],
    [{ INTERNAL_TOKEN: 'short' }, 'INTERNAL_TOKEN is invalid: expected a secret of 16 to 200 characters'],
    [{ STRIPE_SECRET_KEY: 'pk_test_abc' }, 'STRIPE_SECRET_KEY is invalid: expected a Stripe secret key'],
  ])('refuses %o naming the variable and what it accepts', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
