import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { eq, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { identityAccounts } from '../db/schema/identity.ts';
import { accountIdFor, USERNAME } from './account-id.ts';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>;

export type Account = typeof identityAccounts.$inferSelect;

/** Why a sign-up was refused, as a key the pages translate. */
export type SignUpError = 'usernameInvalid' | 'usernameTaken' | 'emailInvalid' | 'emailTaken' | 'passwordWeak';

export const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/;
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

/** At least 10 characters mixing letters with digits or symbols, and not the username. */
export function isWeakPassword(password: string, username: string): boolean {
  return password.length < 10 || password.length > 200 || !/[A-Za-z]/.test(password) || !/[^A-Za-z]/.test(password) || password.toLowerCase().includes(username.toLowerCase());
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: 64 * 1024 * 1024 });
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 });
  return timingSafeEqual(actual, expected);
}

let dummyHash: Promise<string> | undefined;

export class AccountsService {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async find(id: string): Promise<Account | undefined> {
    const [row] = await this.db.select().from(identityAccounts).where(eq(identityAccounts.id, id));
    return row;
  }

  /** The account for a username or email and password, or undefined (without saying which was wrong). */
  async authenticate(login: string, password: string): Promise<Account | undefined> {
    const key = login.trim().toLowerCase();
    const [row] = await this.db
      .select()
      .from(identityAccounts)
      .where(or(eq(sql`lower(${identityAccounts.username})`, key), eq(identityAccounts.email, key)));
    // Hash even when the account is unknown, so timing does not tell which names exist.
    const ok = await verifyPassword(password, row?.passwordHash ?? (await (dummyHash ??= hashPassword(randomBytes(16).toString('hex')))));
    return row && ok ? row : undefined;
  }

  async signUp(input: { username: string; email: string; password: string; roles?: string[] }): Promise<{ account: Account } | { error: SignUpError }> {
    const username = input.username.trim();
    const email = input.email.trim().toLowerCase();
    if (!USERNAME.test(username)) return { error: 'usernameInvalid' };
    if (!EMAIL.test(email) || email.length > 254) return { error: 'emailInvalid' };
    if (isWeakPassword(input.password, username)) return { error: 'passwordWeak' };
    const id = accountIdFor(username);
    const [taken] = await this.db
      .select({ id: identityAccounts.id, email: identityAccounts.email })
      .from(identityAccounts)
      .where(or(eq(identityAccounts.id, id), eq(identityAccounts.email, email)));
    if (taken) return { error: taken.id === id ? 'usernameTaken' : 'emailTaken' };
    const [account] = await this.db
      .insert(identityAccounts)
      .values({ id, username, email, passwordHash: await hashPassword(input.password), roles: input.roles ?? [] })
      .onConflictDoNothing()
      .returning();
    // Lost a race with the same name or email at the same moment.
    if (!account) return { error: 'usernameTaken' };
    return { account };
  }
}
