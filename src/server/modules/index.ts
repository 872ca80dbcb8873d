import health from './health/index.ts';
import users from './users/index.ts';
import credits from './money/credits/index.ts';
import notifications from './notifications/index.ts';
import content from './content/index.ts';
import minecraft from './minecraft/index.ts';
import blocklist from './blocklist/index.ts';
import friends from './friends/index.ts';
import friendGroups from './friend-groups/index.ts';
import catalogue from './catalogue/index.ts';
import games from './games/index.ts';
import settings from './settings/index.ts';
import renewals from './money/renewals/index.ts';
import sharing from './sharing/index.ts';
import activity from './activity/index.ts';
import backups from './backups/index.ts';
import consoles from './console/index.ts';
import usage from './usage/index.ts';
import schedules from './schedules/index.ts';
import reviews from './reviews/index.ts';
import promoCodes from './money/promocodes/index.ts';
import creditPacks from './money/credit-packs/index.ts';
import subscriptions from './money/subscriptions/index.ts';
import payments from './money/payments/index.ts';
import invoices from './money/invoices/index.ts';
import staff from './staff/index.ts';
import dataExports from './data-exports/index.ts';
import accountDeletion from './account-deletion/index.ts';
import competitions from './competitions/index.ts';

/**
 * The modules, each a plugin (module.ts), in the order the app registers them: a module comes after
 * those it uses, so it starts after them and closes before them.
 */
export const modules = [
  health,
  users,
  credits,
  notifications,
  content,
  minecraft,
  blocklist,
  friends,
  friendGroups,
  catalogue,
  games,
  settings,
  renewals,
  sharing,
  activity,
  backups,
  consoles,
  usage,
  schedules,
  reviews,
  promoCodes,
  creditPacks,
  subscriptions,
  payments,
  invoices,
  staff,
  dataExports,
  accountDeletion,
  competitions,
];
