import { useMemo } from 'react';
import type { AccessControlProvider } from '@refinedev/core';
import { useSession } from './auth.tsx';
import { isStaffResource } from './resources.ts';

/**
 * The roles an access token carries (`realm_access.roles`, as Keycloak and the embedded provider
 * put them). Only for what the page shows: the API checks the same token on every call.
 */
export function tokenRoles(token: string | undefined): string[] {
  const payload = token?.split('.')[1];
  if (!payload) return [];
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { realm_access?: { roles?: unknown } };
    const roles = claims.realm_access?.roles;
    return Array.isArray(roles) ? roles.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}

export function useRoles(): string[] {
  const { accessToken } = useSession();
  return useMemo(() => tokenRoles(accessToken), [accessToken]);
}

/** Staff and support open the back office; players do not. */
export const seesBackOffice = (roles: readonly string[]) => roles.includes('staff') || roles.includes('support');

const READS = new Set(['list', 'show']);

/**
 * What a user may do with a resource: the player's own resources are theirs; in the back office
 * staff do everything, support lists and shows, anyone else nothing.
 */
export function can(roles: readonly string[], resource: string | undefined, action: string): boolean {
  if (!isStaffResource(resource)) return true;
  if (roles.includes('staff')) return true;
  return roles.includes('support') && READS.has(action);
}

/** Refine's access control from the token's roles: it hides the menu entries and buttons a user may not use. */
export function accessControlProvider(roles: readonly string[]): AccessControlProvider {
  return {
    can: async ({ resource, action }) => (can(roles, resource, action) ? { can: true } : { can: false, reason: 'forbidden' }),
    // The buttons a role may not use are hidden, not shown disabled.
    options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
  };
}
