import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';

/** The shipped realm must give tokens the API accepts with the default client id and audience. */
describe('Keycloak realm export', () => {
  const realm = JSON.parse(fs.readFileSync('deploy/keycloak/blockhost-realm.json', 'utf8'));
  const config = loadConfig({});
  const client = realm.clients.find((c: { clientId: string }) => c.clientId === config.oidc.clientId);

  it('declares the public web client with PKCE and the callback the web app uses', () => {
    expect(client).toMatchObject({ publicClient: true, standardFlowEnabled: true, implicitFlowEnabled: false });
    expect(client.attributes['pkce.code.challenge.method']).toBe('S256');
    expect(client.redirectUris[0]).toMatch(/\/auth\/callback$/);
  });

  it('puts the API audience and the realm roles staff and support in access tokens', () => {
    const audience = client.protocolMappers.find((m: { protocolMapper: string }) => m.protocolMapper === 'oidc-audience-mapper');
    expect(audience.config['included.custom.audience']).toBe(config.oidc.audience);
    expect(audience.config['access.token.claim']).toBe('true');
    expect(client.defaultClientScopes).toContain('roles');
    expect(realm.roles.realm.map((r: { name: string }) => r.name).sort()).toEqual(['staff', 'support']);
  });
});
