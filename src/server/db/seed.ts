import { count } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Database } from './client.ts';
import { identityAccounts } from './schema/identity.ts';
import { AccountsService } from '../identity/accounts.ts';
import { createServices } from '../services.ts';

/** The accounts README.md names; change both together. */
export const SEED_ACCOUNTS = [
  { username: 'staff', email: 'staff@blockhost.local', password: 'Blocks-Admin-2026', roles: ['staff', 'support'], credits: 0 },
  { username: 'alice', email: 'alice@blockhost.local', password: 'Creeper-2026!', roles: [], credits: 500 },
  { username: 'bob', email: 'bob@blockhost.local', password: 'Diamond-2026!', roles: [], credits: 200 },
] as const;

/** True when nothing has been seeded or signed up yet. */
export async function isEmpty(database: Database): Promise<boolean> {
  const [row] = await database.db.select({ n: count() }).from(identityAccounts);
  return (row?.n ?? 0) === 0;
}

/**
 * Seeds what a fresh install shows: the staff account and two players with starting credits.
 * Idempotent: what exists is left alone.
 */
export async function seed(config: Config, database: Database): Promise<string[]> {
  const done: string[] = [];
  const services = createServices(config, database);
  const accounts = new AccountsService(database.db);
  for (const a of SEED_ACCOUNTS) {
    const result = await accounts.signUp({ username: a.username, email: a.email, password: a.password, roles: [...a.roles] });
    if ('error' in result) {
      if (result.error === 'usernameTaken' || result.error === 'emailTaken') continue;
      throw new Error(`seed account ${a.username} refused: ${result.error}`);
    }
    // With the embedded issuer the platform user can be made now; with another issuer it is made at first sign-in.
    if (config.oidc.embedded && a.credits > 0) {
      const user = await services.users.resolve({ subject: `${config.oidc.issuer}|${result.account.id}`, name: a.username, email: a.email, roles: [...a.roles] });
      await services.credits.apply(database.db, { userId: user.id, amount: a.credits, kind: 'ADMIN_ADJUSTMENT', reason: 'Welcome credits' });
    }
    done.push(a.username);
  }
  return done;
}
