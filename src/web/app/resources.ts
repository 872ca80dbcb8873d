import type { ResourceProps } from '@refinedev/core';

/** What the data provider reads from a resource's `meta`. */
export interface ResourcePaths {
  /** The `/v1` path of the collection; `:name` parts are filled from the hook's `meta.params`. */
  path: string;
  /** Where the list is, when not at `path` (the catalogue lists at `/v1/definition/game/list`). */
  listPath?: string;
  /** Where one record is read (`onePath/{id}`), when not at `path/{id}` (a promo code, whose `path/{code}` is the player's check). */
  onePath?: string;
  /** Where a new record is POSTed, when not at `path` (a game is bought at `/v1/game/create`). */
  createPath?: string;
}

/** The back office's menu groups (`meta.parent` of each staff resource). */
export type StaffGroup = 'catalogue' | 'sales' | 'players' | 'support';

const STAFF = '/dashboard/staff';

/** A back-office resource: its group, its `/v1` paths and its pages under /dashboard/staff/{segment}. */
const staff = <N extends string>(name: N, parent: StaffGroup, segment: string, paths: ResourcePaths, pages: { show?: boolean; create?: boolean; edit?: boolean }) => ({
  name,
  list: `${STAFF}/${segment}`,
  ...(pages.show && { show: `${STAFF}/${segment}/show/:id` }),
  ...(pages.create && { create: `${STAFF}/${segment}/create` }),
  ...(pages.edit && { edit: `${STAFF}/${segment}/edit/:id` }),
  meta: { ...paths, parent, staff: true },
});

/**
 * The collections the dashboard and the back office read, declared once: Refine's resource name
 * and the `/v1` path the data provider calls for it. The back office's resources also name their
 * pages (Refine's menu and buttons link to them) and their menu group.
 */
export const resources = [
  { name: 'games', meta: { path: '/v1/game', createPath: '/v1/game/create' } },
  { name: 'gameTransactions', meta: { path: '/v1/game/:gameId/transactions' } },
  // A game's own items by name: its `settings`, written by the Settings tab's form (PUT).
  { name: 'gameItems', meta: { path: '/v1/game/:gameId' } },
  // A game's world backups, newest first; pinned by a PATCH and restored or linked by custom calls.
  { name: 'backups', meta: { path: '/v1/game/:gameId/backups' } },
  // A game's scheduled tasks, created and changed by the Schedules tab's form; run now, paused or deleted by custom calls.
  { name: 'schedules', meta: { path: '/v1/game/:gameId/schedules' } },
  // Who did what on a game, newest first (moderators and up).
  { name: 'gameActivity', meta: { path: '/v1/game/:gameId/activity' } },
  // The account's sign-in settings on the embedded provider: read as its item `security`, the password changed as its item `password` (PUT).
  { name: 'account', meta: { path: '/v1/account' } },
  // An email change asked (POST): made once the link mailed to the new address is opened.
  { name: 'accountEmail', meta: { path: '/v1/account/email' } },
  // Two-factor sign-in turned on by a first code (POST), off by the password and a code.
  { name: 'twoFactor', meta: { path: '/v1/account/two-factor' } },
  { name: 'twoFactorOff', meta: { path: '/v1/account/two-factor/disable' } },
  { name: 'accountDelete', meta: { path: '/v1/account/delete' } },
  { name: 'friends', meta: { path: '/v1/friend' } },
  // A request is sent by the other player's Minecraft name.
  { name: 'friendRequests', meta: { path: '/v1/friend/request', createPath: '/v1/friend/mcname' } },
  { name: 'friendGroups', meta: { path: '/v1/friend/group' } },
  // A group's members: friends added by id, other players by Minecraft name (each leaves by a DELETE with a body).
  { name: 'friendGroupMembers', meta: { path: '/v1/friend/group/:groupId/member' } },
  { name: 'friendGroupNames', meta: { path: '/v1/friend/group/:groupId/member/pseudo' } },
  { name: 'blocklist', meta: { path: '/v1/blocklist' } },
  // A Minecraft account's name and head by uuid; linking one to the caller is creating it, by name.
  { name: 'minecraftAccounts', meta: { path: '/v1/user/minecraft', createPath: '/v1/user/mcuuid' } },
  { name: 'transactions', meta: { path: '/v1/purchase/transactions' } },
  { name: 'invoices', meta: { path: '/v1/purchase/invoices' } },
  { name: 'gamePayments', meta: { path: '/v1/game/payment' } },
  // Read and unread; one is marked read at /v1/user/notification/{id} (a custom call).
  { name: 'notifications', meta: { path: '/v1/user/notifications' } },
  // A definition's reviews for its players, listed by definition; the page also says whether the caller may write one.
  { name: 'gameReviews', meta: { path: '/v1/game/review', listPath: '/v1/game/review/:definitionId' } },
  staff('definitions', 'catalogue', 'definitions', { path: '/v1/definition/game', listPath: '/v1/definition/game/list' }, { show: true, create: true, edit: true }),
  staff('creditPacks', 'sales', 'packs', { path: '/v1/pricing' }, { create: true, edit: true }),
  staff('promoCodes', 'sales', 'promocodes', { path: '/v1/promocode', onePath: '/v1/staff/promocodes' }, { show: true, create: true, edit: true }),
  staff('plans', 'sales', 'plans', { path: '/v1/subscription' }, { create: true, edit: true }),
  // Who used a promo code: shown on the code's page, no menu entry of its own.
  { name: 'promoCodeUses', meta: { path: '/v1/promocode/:code/uses', staff: true } },
  staff('tournaments', 'players', 'tournaments', { path: '/v1/staff/tournaments' }, { show: true, create: true, edit: true }),
  staff('users', 'players', 'users', { path: '/v1/staff/users' }, { show: true }),
  staff('staffGames', 'players', 'games', { path: '/v1/staff/games' }, { show: true }),
  // A game's backups: shown on the game's page, no menu entry of their own; one is restored by a custom call.
  { name: 'staffGameBackups', meta: { path: '/v1/staff/games/:gameId/backups', staff: true } },
  staff('staffTransactions', 'support', 'transactions', { path: '/v1/staff/transactions' }, {}),
  staff('payments', 'support', 'payments', { path: '/v1/staff/payments' }, { show: true }),
  staff('staffInvoices', 'support', 'invoices', { path: '/v1/staff/invoices' }, { show: true }),
  staff('reviews', 'support', 'reviews', { path: '/v1/staff/reviews' }, {}),
  staff('audit', 'support', 'audit', { path: '/v1/staff/audit' }, { show: true }),
] as const satisfies ResourceProps[];

export type ResourceName = (typeof resources)[number]['name'];

/** True for the back office's resources, which only staff and support may open. */
export const isStaffResource = (name: string | undefined) => resources.some((r) => r.name === name && 'staff' in r.meta);
