import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { startListeningApp, type TestApp } from '../fixtures/app.ts';
import { OidcClient } from '../fixtures/oidc-client.ts';
import { startSmtp } from '../fixtures/smtp.ts';

const PASSWORD = 'first-Password-1';

describe('two-factor sign-in and email change', () => {
  let t: TestApp & { origin: string };
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeEach(async () => {
    smtp = await startSmtp();
    t = await startListeningApp({ SMTP_URL: smtp.url, RATE_LIMIT_SIGNIN_PER_MINUTE: '100' });
  });
  afterEach(async () => {
    await t.close();
    await smtp.close();
  });

  /** The authenticator app's code now, on the app's clock; each use moves the clock to the next code. */
  const code = async (secret: string) => {
    t.clock.advance(30_000);
    return generate({ secret, epoch: Math.floor(t.clock.now.getTime() / 1000) });
  };
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => t.as('tess', { method, url, ...(payload ? { payload } : {}) });
  /** Signs in with the password: the callback when no code is asked, else undefined. */
  const passwordOnly = async (client: OidcClient) => {
    const page = await client.startSignIn();
    const res = await client.postForm(`${page}/login`, { login: 'tess', password: PASSWORD });
    return res.status === 200 ? undefined : client.follow(res);
  };
  /** Signs in with the password up to the code page: its path, words and proof of the first step. */
  const password = async (client: OidcClient) => {
    const page = await client.startSignIn();
    const res = await client.postForm(`${page}/login`, { login: 'tess', password: PASSWORD });
    expect(res.status).toBe(200);
    const html = await res.text();
    return { page, html, pending: /name="pending" value="([^"]+)"/.exec(html)?.[1] ?? '' };
  };

  it('turns on with a first code, then asks a code or a single-use recovery code at sign-in', async () => {
    await new OidcClient(t.origin).signUp('tess', 'tess@example.com', PASSWORD);
    expect((await call('GET', '/v1/account/security')).json()).toEqual({ email: 'tess@example.com', twoFactor: false, recoveryCodesLeft: 0 });

    // Turning on without a setup first, then with a wrong code: refused, still off.
    expect((await call('POST', '/v1/account/two-factor', { code: '123456' })).json().code).toBe('account.noSetup');
    const setup = (await call('POST', '/v1/account/two-factor/setup')).json();
    expect(setup.qrCode).toMatch(/^data:image\/png;base64,/);
    expect(setup.otpauthUrl).toBe(`otpauth://totp/BlockHost:tess?secret=${setup.secret}&issuer=BlockHost`);
    const wrong = await call('POST', '/v1/account/two-factor', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'account.wrongCode', errors: [{ field: 'code' }] });
    expect(await passwordOnly(new OidcClient(t.origin))).toBeInstanceOf(URL);

    const on = await call('POST', '/v1/account/two-factor', { code: await code(setup.secret) });
    expect(on.statusCode).toBe(200);
    const recovery: string[] = on.json().recoveryCodes;
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    expect((await call('GET', '/v1/account/security')).json()).toMatchObject({ twoFactor: true, recoveryCodesLeft: 10 });
    // The codes are kept hashed only.
    const stored = (await t.database.db.execute('select recovery_codes from identity_accounts')) as unknown as { rows: Array<{ recovery_codes: string[] }> };
    expect(stored.rows[0]!.recovery_codes.some((h) => recovery.includes(h))).toBe(false);

    // The password alone no longer signs in: a code is asked.
    const client = new OidcClient(t.origin);
    const step = await password(client);
    expect(step.html).toContain('Validation en deux étapes');
    const bad = await client.postForm(`${step.page}/totp`, { pending: step.pending, code: '000000' });
    expect(bad.status).toBe(401);
    expect(await bad.text()).toContain('Code incorrect');
    // A forged proof is a dead page, not a sign-in.
    expect((await client.postForm(`${step.page}/totp`, { pending: step.pending.replace(/.$/, 'x'), code: await code(setup.secret) })).status).toBe(400);
    const good = await client.follow(await client.postForm(`${step.page}/totp`, { pending: step.pending, code: await code(setup.secret) }));
    expect(good).toBeInstanceOf(URL);
    expect((await client.exchange(good as URL)).status).toBe(200);

    // A recovery code works once.
    const again = new OidcClient(t.origin);
    const second = await password(again);
    expect(await again.follow(await again.postForm(`${second.page}/totp`, { pending: second.pending, code: recovery[0]! }))).toBeInstanceOf(URL);
    const third = new OidcClient(t.origin);
    const reuse = await password(third);
    expect((await third.postForm(`${reuse.page}/totp`, { pending: reuse.pending, code: recovery[0]! })).status).toBe(401);
    expect((await call('GET', '/v1/account/security')).json().recoveryCodesLeft).toBe(9);
  });

  it('limits wrong codes as sign-in limits wrong passwords, counted together wherever they are typed', async () => {
    const limited = await startListeningApp({ SMTP_URL: smtp.url, RATE_LIMIT_SIGNIN_PER_MINUTE: '4' });
    try {
      await new OidcClient(limited.origin).signUp('tess', 'tess@example.com', PASSWORD);
      const api = (url: string, payload?: object) => limited.as('tess', { method: 'POST', url, ...(payload ? { payload } : {}) });
      const { secret } = (await api('/v1/account/two-factor/setup')).json();
      const now = () => generate({ secret, epoch: Math.floor(limited.clock.now.getTime() / 1000) });
      const { recoveryCodes } = (await api('/v1/account/two-factor', { code: await now() })).json();
      for (let i = 0; i < 4; i++) expect((await api('/v1/account/two-factor/disable', { password: PASSWORD, code: '000000' })).statusCode).toBe(400);
      const blocked = await api('/v1/account/two-factor/disable', { password: PASSWORD, code: recoveryCodes[0] });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().code).toBe('account.tooManyTries');

      // The sign-in's code page counts the same tries: even a right code waits.
      const client = new OidcClient(limited.origin);
      const page = await client.startSignIn();
      const step = await (await client.postForm(`${page}/login`, { login: 'tess', password: PASSWORD })).text();
      const pending = /name="pending" value="([^"]+)"/.exec(step)![1]!;
      const refused = await client.postForm(`${page}/totp`, { pending, code: recoveryCodes[0] });
      expect(refused.status).toBe(429);
      expect(await refused.text()).toContain('Trop de tentatives');
    } finally {
      await limited.close();
    }
  });

  it('never keeps the secret or the recovery codes for an Idempotency-Key replay', async () => {
    await new OidcClient(t.origin).signUp('tess', 'tess@example.com', PASSWORD);
    const keyed = (url: string, key: string, payload?: object) => t.as('tess', { method: 'POST', url, headers: { 'idempotency-key': key }, ...(payload ? { payload } : {}) });
    const first = (await keyed('/v1/account/two-factor/setup', 'setup-1')).json();
    const again = (await keyed('/v1/account/two-factor/setup', 'setup-1')).json();
    expect(again.secret).not.toBe(first.secret);
    const on = await keyed('/v1/account/two-factor', 'on-1', { code: await code(again.secret) });
    expect(on.json().recoveryCodes).toHaveLength(10);
    const kept = (await t.database.db.execute('select body from idempotency_keys')) as unknown as { rows: Array<{ body: string | null }> };
    expect(kept.rows.filter((r) => r.body?.includes(again.secret) || on.json().recoveryCodes.some((c: string) => r.body?.includes(c)))).toEqual([]);
  });

  it('turns off only with the password and a code', async () => {
    await new OidcClient(t.origin).signUp('tess', 'tess@example.com', PASSWORD);
    const { secret } = (await call('POST', '/v1/account/two-factor/setup')).json();
    await call('POST', '/v1/account/two-factor', { code: await code(secret) });

    const wrongPassword = await call('POST', '/v1/account/two-factor/disable', { password: 'not-it-at-all-1', code: await code(secret) });
    expect(wrongPassword.json()).toMatchObject({ status: 400, code: 'account.wrongPassword', errors: [{ field: 'password' }] });
    const wrongCode = await call('POST', '/v1/account/two-factor/disable', { password: PASSWORD, code: '000000' });
    expect(wrongCode.json()).toMatchObject({ status: 400, code: 'account.wrongCode' });
    expect((await call('GET', '/v1/account/security')).json().twoFactor).toBe(true);

    expect((await call('POST', '/v1/account/two-factor/disable', { password: PASSWORD, code: await code(secret) })).statusCode).toBe(204);
    expect((await call('GET', '/v1/account/security')).json()).toMatchObject({ twoFactor: false, recoveryCodesLeft: 0 });
    expect(await passwordOnly(new OidcClient(t.origin))).toBeInstanceOf(URL);
  });

  it('changes the email once the link mailed to the new address is opened, and tells the old one', async () => {
    await new OidcClient(t.origin).signUp('tess', 'tess@example.com', PASSWORD);
    await new OidcClient(t.origin).signUp('other', 'other@example.com', PASSWORD);
    const ask = (payload: object) => call('POST', '/v1/account/email', payload);

    expect((await ask({ password: PASSWORD, newEmail: 'not-an-email' })).json()).toMatchObject({ status: 400, errors: [{ field: 'newEmail', code: 'field.email' }] });
    expect((await ask({ password: PASSWORD, newEmail: 'other@example.com' })).json()).toMatchObject({ status: 400, code: 'account.emailTaken' });
    expect((await ask({ password: 'not-it-at-all-1', newEmail: 'tess@new.example' })).json()).toMatchObject({ status: 400, code: 'account.wrongPassword' });
    expect((await ask({ password: PASSWORD, newEmail: 'Tess@New.example' })).statusCode).toBe(202);

    // Nothing changes before the link is opened.
    expect((await call('GET', '/v1/account/security')).json().email).toBe('tess@example.com');
    const mail = await smtp.next('tess@new.example');
    expect(mail.subject).toBe('Confirmez votre nouvelle adresse e-mail BlockHost');
    const link = mail.links.find((l) => l.includes('/oidc/ui/email'))!;
    const browser = new OidcClient(t.origin);
    // Opening the link shows a button: a mail scanner fetching it confirms nothing.
    expect((await browser.request(link)).status).toBe(200);
    expect((await call('GET', '/v1/account/security')).json().email).toBe('tess@example.com');

    const token = new URL(link).searchParams.get('token')!;
    const done = await browser.postForm('/oidc/ui/email', { token });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('tess@new.example');
    expect((await call('GET', '/v1/account/security')).json().email).toBe('tess@new.example');
    const notice = await smtp.next('tess@example.com');
    expect(notice.subject).toBe('L’adresse e-mail de votre compte BlockHost a changé');
    expect(notice.text).toContain('tess@new.example');

    expect((await browser.postForm('/oidc/ui/email', { token })).status).toBe(410);
    expect((await new OidcClient(t.origin).signIn('tess@new.example', PASSWORD)).status).toBe(200);
  });
});
