import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { identityAccounts, identityLinks, oidcPayloads } from '../db/schema/identity.ts';
import type { Locale } from '../../contract/messages.ts';
import type { Mailer } from '../lib/mailer.ts';
import type { WindowCounters } from '../lib/counters.ts';
import { HttpProblem, badRequest, type FieldProblem } from '../lib/problems.ts';
import { EMAIL, hashPassword, isWeakPassword, verifyPassword, type Account } from './accounts.ts';
import { newRecoveryCodes, totpQrCode, totpStep, totpUri, newTotpSecret } from './totp.ts';

const RESET_MS = 30 * 60_000;
const EMAIL_LINK_MS = 24 * 3600_000;
const MINUTE = 60_000;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

interface Deps {
  mailer: Mailer;
  failures: WindowCounters;
  /** The saved language of the person an account is (by its token subject). */
  localeOf: (accountId: string) => Promise<Locale>;
  clock: () => Date;
  publicUrl: string;
  triesPerMinute: number;
  log: { error(object: object, message: string): void };
}

const fieldError = (key: Parameters<typeof badRequest>[0], errors: FieldProblem[]) => badRequest(key, {}, errors);

/**
 * What a person does to their own account on the embedded provider: password (changed, or reset
 * by a mailed link), email (changed once a link mailed to the new address is opened) and two-factor
 * sign-in. Links keep only their token's hash; wrong codes count against the sign-in's limit.
 */
export class AccountSecurity {
  private readonly db: Db;
  private readonly deps: Deps;

  constructor(db: Db, deps: Deps) {
    this.db = db;
    this.deps = deps;
  }

  private async account(id: string): Promise<Account> {
    const [row] = await this.db.select().from(identityAccounts).where(eq(identityAccounts.id, id));
    if (!row) throw new HttpProblem(403, 'account.externalIssuer');
    return row;
  }

  /** A notice of a change already made: its failure (the mail server down) is logged, and the change stands. */
  private notify(account: Pick<Account, 'id' | 'username'>, to: string, kind: 'passwordChanged' | 'emailChanged', params?: Record<string, string>) {
    void this.mail(account, to, kind, params ? { params } : {}).catch((err: unknown) => this.deps.log.error({ err, kind }, 'notice email failed'));
  }

  private async mail(account: Pick<Account, 'id' | 'username'>, to: string, kind: Parameters<Mailer['send']>[0]['kind'], extra: { link?: string; params?: Record<string, string> } = {}) {
    await this.deps.mailer.send({ to, locale: await this.deps.localeOf(account.id), name: account.username, kind, ...extra });
  }

  async status(id: string) {
    const account = await this.account(id);
    return { email: account.email, twoFactor: account.totpEnabled, recoveryCodesLeft: account.totpEnabled ? account.recoveryCodes.length : 0 };
  }

  /** Throws 400 on `field` unless `password` is the account's; counted as a failed sign-in. */
  private async checkPassword(account: Account, password: string, field = 'currentPassword') {
    await this.refuseWhenTooMany(account.id);
    if (await verifyPassword(password, account.passwordHash)) return;
    await this.deps.failures.hit(`signin-failed:${account.username.toLowerCase()}`, MINUTE);
    throw fieldError('account.wrongPassword', [{ field, key: 'field.wrongPassword' }]);
  }

  /** 429 once the account saw as many failures this minute as sign-in allows. */
  async refuseWhenTooMany(id: string) {
    const [row] = await this.db.select({ username: identityAccounts.username }).from(identityAccounts).where(eq(identityAccounts.id, id));
    const keys = [`signin-failed:${(row?.username ?? '').toLowerCase()}`, `totp-failed:${id}`];
    const counts = await Promise.all(keys.map((k) => this.deps.failures.count(k)));
    if (counts.some((n) => n >= this.deps.triesPerMinute)) throw new HttpProblem(429, 'account.tooManyTries', {}, { headers: { 'retry-after': '60' } });
  }

  async changePassword(id: string, current: string, next: string) {
    const account = await this.account(id);
    await this.checkPassword(account, current);
    if (isWeakPassword(next, account.username)) throw fieldError('account.passwordWeak', [{ field: 'newPassword', key: 'field.passwordWeak' }]);
    await this.db
      .update(identityAccounts)
      .set({ passwordHash: await hashPassword(next) })
      .where(eq(identityAccounts.id, id));
    this.notify(account, account.email, 'passwordChanged');
  }

  private async newLink(accountId: string, kind: 'reset' | 'email', ttlMs: number, email?: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.deps.clock().getTime() + ttlMs);
    await this.db.insert(identityLinks).values({ tokenHash: sha256(token), accountId, kind, email: email ?? null, expiresAt });
    return token;
  }

  /** The link's row while it may still be used: not used, not expired. */
  async liveLink(token: string, kind: 'reset' | 'email') {
    const [row] = await this.db
      .select()
      .from(identityLinks)
      .where(and(eq(identityLinks.tokenHash, sha256(token)), eq(identityLinks.kind, kind), isNull(identityLinks.usedAt), gt(identityLinks.expiresAt, this.deps.clock())));
    return row;
  }

  /** Uses a link once: true for the one caller that took it. */
  private async takeLink(token: string, kind: 'reset' | 'email', tx: Pick<Db, 'update'>) {
    const taken = await tx
      .update(identityLinks)
      .set({ usedAt: this.deps.clock() })
      .where(and(eq(identityLinks.tokenHash, sha256(token)), eq(identityLinks.kind, kind), isNull(identityLinks.usedAt), gt(identityLinks.expiresAt, this.deps.clock())))
      .returning();
    return taken[0];
  }

  /** Mails a reset link when the address is an account's; says nothing either way. */
  async requestReset(email: string) {
    const [account] = await this.db.select().from(identityAccounts).where(eq(identityAccounts.email, email.trim().toLowerCase()));
    if (!account) return;
    const token = await this.newLink(account.id, 'reset', RESET_MS);
    await this.mail(account, account.email, 'reset', { link: `${this.deps.publicUrl}/oidc/ui/reset?token=${token}` });
  }

  /** Sets the password a live reset link allows, and signs every session of the account out. */
  async resetPassword(token: string, password: string): Promise<'done' | 'dead' | 'weak'> {
    const link = await this.liveLink(token, 'reset');
    if (!link) return 'dead';
    const account = await this.account(link.accountId);
    if (isWeakPassword(password, account.username)) return 'weak';
    const passwordHash = await hashPassword(password);
    const done = await this.db.transaction(async (tx) => {
      if (!(await this.takeLink(token, 'reset', tx))) return false;
      await tx.update(identityAccounts).set({ passwordHash }).where(eq(identityAccounts.id, account.id));
      await signOutEverywhere(tx, account.id);
      return true;
    });
    return done ? 'done' : 'dead';
  }

  async requestEmailChange(id: string, password: string, newEmail: string) {
    const account = await this.account(id);
    const email = newEmail.trim().toLowerCase();
    if (!EMAIL.test(email) || email.length > 254) throw fieldError('account.emailInvalid', [{ field: 'newEmail', key: 'field.email' }]);
    if (email === account.email) throw fieldError('account.emailSame', [{ field: 'newEmail', key: 'field.emailSame' }]);
    await this.checkPassword(account, password, 'password');
    const [taken] = await this.db.select({ id: identityAccounts.id }).from(identityAccounts).where(eq(identityAccounts.email, email));
    if (taken) throw fieldError('account.emailTaken', [{ field: 'newEmail', key: 'field.emailTaken' }]);
    const token = await this.newLink(id, 'email', EMAIL_LINK_MS, email);
    await this.mail(account, email, 'emailConfirm', { link: `${this.deps.publicUrl}/oidc/ui/email?token=${token}` });
  }

  /** The new address a live link confirms, now the account's; the old one is told. Undefined: dead link or address taken since. */
  async confirmEmail(token: string): Promise<string | undefined> {
    const result = await this.db.transaction(async (tx) => {
      const link = await this.takeLink(token, 'email', tx);
      if (!link?.email) return undefined;
      const [before] = await tx.select().from(identityAccounts).where(eq(identityAccounts.id, link.accountId));
      const [free] = await tx.select({ id: identityAccounts.id }).from(identityAccounts).where(eq(identityAccounts.email, link.email));
      if (!before || free) return undefined;
      await tx.update(identityAccounts).set({ email: link.email }).where(eq(identityAccounts.id, link.accountId));
      return { before, email: link.email };
    });
    if (!result) return undefined;
    this.notify(result.before, result.before.email, 'emailChanged', { email: result.email });
    return result.email;
  }

  /** A new secret to scan, kept aside until a first code confirms it. */
  async setupTwoFactor(id: string) {
    const account = await this.account(id);
    if (account.totpEnabled) throw new HttpProblem(409, 'account.twoFactorOn');
    const secret = newTotpSecret();
    await this.db.update(identityAccounts).set({ totpSecret: secret }).where(eq(identityAccounts.id, id));
    const uri = totpUri(account.username, secret);
    return { secret, otpauthUrl: uri, qrCode: await totpQrCode(uri) };
  }

  /** Turns two-factor on with a first code of the pending secret; answers the recovery codes, shown once. */
  async enableTwoFactor(id: string, code: string): Promise<string[]> {
    const account = await this.account(id);
    if (account.totpEnabled) throw new HttpProblem(409, 'account.twoFactorOn');
    if (!account.totpSecret) throw new HttpProblem(409, 'account.noSetup');
    await this.refuseWhenTooMany(id);
    const step = await this.totpMatch(account, code);
    if (step === undefined) return this.wrongCode(id);
    const codes = newRecoveryCodes();
    await this.db
      .update(identityAccounts)
      .set({ totpEnabled: true, totpLastStep: step, recoveryCodes: codes.map(sha256) })
      .where(eq(identityAccounts.id, id));
    return codes;
  }

  async disableTwoFactor(id: string, password: string, code: string) {
    const account = await this.account(id);
    if (!account.totpEnabled) throw new HttpProblem(409, 'account.twoFactorOff');
    await this.checkPassword(account, password, 'password');
    if (!(await this.secondFactor(account, code))) return this.wrongCode(id);
    await this.db.update(identityAccounts).set({ totpEnabled: false, totpSecret: null, totpLastStep: null, recoveryCodes: [] }).where(eq(identityAccounts.id, id));
  }

  /** Deleting the account asks what turning two-factor off asks: the password, and a code (or a recovery code) when two-factor is on. */
  async confirmDeletion(id: string, password: string, code: string | undefined) {
    const account = await this.account(id);
    await this.checkPassword(account, password, 'password');
    if (account.totpEnabled && !(await this.secondFactor(account, code ?? ''))) await this.wrongCode(id);
  }

  private async wrongCode(id: string): Promise<never> {
    await this.deps.failures.hit(`totp-failed:${id}`, MINUTE);
    throw fieldError('account.wrongCode', [{ field: 'code', key: 'field.wrongCode' }]);
  }

  /** The step of a code of the account's secret not used before, allowing one step of clock drift. */
  private async totpMatch(account: Account, code: string): Promise<number | undefined> {
    if (!account.totpSecret || !/^\d{6}$/.test(code.trim())) return undefined;
    const step = await totpStep(account.totpSecret, code.trim(), this.deps.clock());
    if (step === undefined || (account.totpLastStep !== null && step <= account.totpLastStep)) return undefined;
    return step;
  }

  /**
   * True when `code` is a fresh authenticator code or an unused recovery code of the account,
   * which it then spends. Both writes are conditional, so a code races to one use.
   */
  async secondFactor(account: Account, code: string): Promise<boolean> {
    const step = await this.totpMatch(account, code);
    if (step !== undefined) {
      const taken = await this.db
        .update(identityAccounts)
        .set({ totpLastStep: step })
        .where(and(eq(identityAccounts.id, account.id), sql`coalesce(${identityAccounts.totpLastStep}, -1) < ${step}`))
        .returning({ id: identityAccounts.id });
      return taken.length > 0;
    }
    const hash = sha256(code.trim().toLowerCase());
    if (!account.recoveryCodes.includes(hash)) return false;
    const spent = await this.db
      .update(identityAccounts)
      .set({ recoveryCodes: sql`array_remove(${identityAccounts.recoveryCodes}, ${hash})` })
      .where(and(eq(identityAccounts.id, account.id), sql`${hash} = any(${identityAccounts.recoveryCodes})`))
      .returning({ id: identityAccounts.id });
    return spent.length > 0;
  }

  /** A failed second step at sign-in, counted with the account's failed sign-ins. */
  countCodeFailure(id: string) {
    return this.deps.failures.hit(`totp-failed:${id}`, MINUTE);
  }
}

/**
 * A deleted account's sign-in goes inside its deletion's transaction: every session, grant and
 * token of the provider, then the account (its mailed links with it), so its username and email
 * are free for a new sign-up, which starts from nothing.
 */
export async function forgetAccount(tx: Pick<Db, 'delete'>, accountId: string) {
  await signOutEverywhere(tx, accountId);
  await tx.delete(identityAccounts).where(eq(identityAccounts.id, accountId));
}

/**
 * Ends every session of the account: the provider's sessions, grants, refresh tokens and codes
 * all name it (`accountId`), and tokens of a grant go with it. Access tokens are JWTs the API checks
 * alone, so one already issued lives out its 5 minutes.
 */
async function signOutEverywhere(tx: Pick<Db, 'delete'>, accountId: string) {
  const grants = sql`(select id from ${oidcPayloads} where model = 'Grant' and payload->>'accountId' = ${accountId})`;
  await tx.delete(oidcPayloads).where(sql`${oidcPayloads.grantId} in ${grants} or ${oidcPayloads.payload}->>'accountId' = ${accountId}`);
}
