import type { ResourceProps } from '@refinedev/core';

/**
 * The collections the dashboard lists, declared once: Refine's resource name and the `/v1` path
 * the data provider calls for it. `:name` in a path is filled from the hook's `meta.params`.
 */
export const resources = [
  { name: 'games', meta: { path: '/v1/game' } },
  { name: 'gameTransactions', meta: { path: '/v1/game/:gameId/transactions' } },
  { name: 'friends', meta: { path: '/v1/friend' } },
  { name: 'friendRequests', meta: { path: '/v1/friend/request' } },
  { name: 'friendGroups', meta: { path: '/v1/friend/group' } },
  { name: 'blocklist', meta: { path: '/v1/blocklist' } },
  { name: 'transactions', meta: { path: '/v1/purchase/transactions' } },
  { name: 'invoices', meta: { path: '/v1/purchase/invoices' } },
  { name: 'gamePayments', meta: { path: '/v1/game/payment' } },
] as const satisfies ResourceProps[];

export type ResourceName = (typeof resources)[number]['name'];
