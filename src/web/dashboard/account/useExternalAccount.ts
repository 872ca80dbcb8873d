import { useAppConfig } from '../../app/config.ts';

/** The issuer's account console (Keycloak's `<issuer>/account`) when accounts live there; null with the embedded provider. */
export function useExternalAccount(): string | null {
  const provider = useAppConfig().auth.providers[0];
  return provider && provider.id !== 'embedded' ? `${provider.issuer}/account` : null;
}
