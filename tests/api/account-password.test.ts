import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { startListeningApp, type TestApp } from '../fixtures/app.ts';
import { OidcClient } from '../fixtures/oidc-client.ts';
import { startSmtp } from '../fixtures/smtp.ts';

type Smtp = Awaited<ReturnType<typeof startSmtp>>;
const PASSWORD = 'first-Password-1';

describe('the mailer', () => {
  it('refuses a bad SMTP_URL or MAIL_FROM at start, naming the variable', () => {
    expect(() => loadConfig({ SMTP_URL: 'mail example com' })).toThrow(/SMTP_URL="mail example com" is invalid: expected an absolute URL/);
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL=.*expected a URL starting with smtp:\/\/ or smtps:\/\//);
    expect(() => loadConfig({ MAIL_FROM: 'not an address' })).toThrow(/MAIL_FROM is invalid/);
    expect(loadConfig({ SMTP_URL: 'smtps://user:secret@mail.example.com:465', MAIL_FROM: 'BlockHost <hello@example.com>' }).mail).toMatchObject({
      smtpUrl: 'smtps://user:secret@mail.example.com:465',
      from: 'BlockHost <hello@example.com>',
    });
  });

  it('without SMTP_URL writes each message as an .eml file in DATA_DIR/outbox, with its link', async () => {
    const t = await startListeningApp();
    try {
      await new OidcClient(t.origin).signUp('outboxer', 'outboxer@example.com', PASSWORD);
      const answer = await new OidcClient(t.origin).postForm('/oidc/ui/forgot', { email: 'outboxer@example.com' });
      expect(answer.status).toBe(200);
      const outbox = path.join(t.config.dataDir, 'outbox');
      const messages = () => (fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((name) => name.endsWith('.eml')) : []);
      await expect.poll(messages, { timeout: 10_000 }).toHaveLength(1);
      const eml = fs.readFileSync(path.join(outbox, messages()[0]!), 'utf8');
      expect(eml).toContain('To: outboxer@example.com');
      expect(eml).toMatch(/Content-Type: text\/html/);
      expect(eml).toContain(`${t.origin}/oidc/ui/reset?token=`);
    } finally {
      await t.close();
    }
  });
});

describe('password: change and reset', () => {
  let t: TestApp & { origin: string };
  let smtp: Smtp;
  beforeEach(async () => {
    smtp = await startSmtp();
    t = await startListeningApp({ SMTP_URL: smtp.url, MAIL_FROM: 'BlockHost <no-reply@example.com>', RATE_LIMIT_SIGNIN_PER_MINUTE: '100' });
  });
  afterEach(async () => {
    await t.close();
    await smtp.close();
  });

  const signsIn = async (login: string, password: string) => {
    const client = new OidcClient(t.origin);
    const page = await client.startSignIn();
    return (await client.follow(await client.postForm(`${page}/login`, { login, password }))) instanceof URL;
  };
  const changePassword = (body: object, headers: Record<string, string> = {}) => t.as('reed', { method: 'PUT', url: '/v1/account/password', payload: body, headers });

  it('changes the password only with the right current one, in the caller’s language, under the sign-up rules', async () => {
    await new OidcClient(t.origin).signUp('reed', 'reed@example.com', PASSWORD);

    const wrong = await changePassword({ currentPassword: 'not-it-at-all-1', newPassword: 'second-Password-2' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'account.wrongPassword', detail: 'Le mot de passe actuel est incorrect : rien n’a été changé', errors: [{ field: 'currentPassword' }] });
    const wrongEn = await changePassword({ currentPassword: 'not-it-at-all-1', newPassword: 'second-Password-2' }, { cookie: 'locale=en' });
    expect(wrongEn.json().detail).toBe('The current password is wrong: nothing was changed');

    const weak = await changePassword({ currentPassword: PASSWORD, newPassword: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ code: 'account.passwordWeak', errors: [{ field: 'newPassword', code: 'field.passwordWeak' }] });
    expect(await signsIn('reed', PASSWORD)).toBe(true);

    const done = await changePassword({ currentPassword: PASSWORD, newPassword: 'second-Password-2' }, { 'idempotency-key': 'change-1' });
    expect(done.statusCode).toBe(204);
    expect(await signsIn('reed', PASSWORD)).toBe(false);
    expect(await signsIn('reed', 'second-Password-2')).toBe(true);
    const notice = await smtp.next('reed@example.com');
    // Reed's language is now English (the page he called from), so is the notice.
    expect(notice.subject).toBe('Your BlockHost password changed');
  });

  it('mails a reset link in the person’s language, valid once, that signs every other session out', async () => {
    const session = await new OidcClient(t.origin).signUp('rosa', 'rosa@example.com', PASSWORD);
    // Rosa reads the site in English: her mails come in English.
    await t.as('rosa', { url: '/v1/user', headers: { cookie: 'locale=en' } });

    const browser = new OidcClient(t.origin);
    const form = await browser.request('/oidc/ui/forgot?lang=en');
    expect(await form.text()).toContain('Forgot password');
    const known = await browser.postForm('/oidc/ui/forgot?lang=en', { email: 'Rosa@Example.com' });
    const unknown = await browser.postForm('/oidc/ui/forgot?lang=en', { email: 'nobody@example.com' });
    // The same answer whether or not the address has an account.
    expect([known.status, unknown.status]).toEqual([200, 200]);
    expect(await known.text()).toBe(await unknown.text());

    const mail = await smtp.next('rosa@example.com');
    expect(mail.subject).toBe('Choose a new BlockHost password');
    expect(mail.html).toContain('Choose a password');
    const link = mail.links.find((l) => l.includes('/oidc/ui/reset'))!;
    expect(link).toMatch(new RegExp(`^${t.origin}/oidc/ui/reset\\?token=`));

    const page = await browser.request(link);
    expect(page.status).toBe(200);
    const token = new URL(link).searchParams.get('token')!;
    const weak = await browser.postForm('/oidc/ui/reset?lang=en', { token, password: 'rosa-rosa' });
    expect(weak.status).toBe(400);
    const reset = await browser.postForm('/oidc/ui/reset?lang=en', { token, password: 'brand-New-pass-3' });
    expect(reset.status).toBe(200);
    expect(await reset.text()).toContain('Password changed');

    // Used twice: refused, and the password stays the one set.
    const again = await browser.postForm('/oidc/ui/reset?lang=en', { token, password: 'another-New-pass-4' });
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('This link has expired or was already used');
    expect((await browser.request(link)).status).toBe(410);
    expect(await signsIn('rosa', PASSWORD)).toBe(false);
    expect(await signsIn('rosa', 'brand-New-pass-3')).toBe(true);

    // The session from before the reset is over: its refresh token is refused.
    const refresh = await new OidcClient(t.origin).token({ grant_type: 'refresh_token', refresh_token: session.body.refresh_token! });
    expect(refresh.status).toBe(400);
    expect(refresh.body.error).toBe('invalid_grant');
    // Nobody asked for the unknown address: nothing was sent there.
    expect(smtp.inbox.filter((m) => m.to.includes('nobody@example.com'))).toEqual([]);
  });

  it('refuses a reset link after 30 minutes, in French by default', async () => {
    await new OidcClient(t.origin).signUp('ravi', 'ravi@example.com', PASSWORD);
    const browser = new OidcClient(t.origin);
    await browser.postForm('/oidc/ui/forgot', { email: 'ravi@example.com' });
    const mail = await smtp.next('ravi@example.com');
    expect(mail.subject).toBe('Choisir un nouveau mot de passe BlockHost');
    const link = mail.links.find((l) => l.includes('/oidc/ui/reset'))!;
    t.clock.advance(29 * 60_000);
    expect((await browser.request(link)).status).toBe(200);
    t.clock.advance(2 * 60_000);
    const late = await browser.request(link);
    expect(late.status).toBe(410);
    expect(await late.text()).toContain('Ce lien a expiré ou a déjà servi');
    const post = await browser.postForm('/oidc/ui/reset', { token: new URL(link).searchParams.get('token')!, password: 'brand-New-pass-3' });
    expect(post.status).toBe(410);
    expect(await signsIn('ravi', PASSWORD)).toBe(true);
  });

  it('links "forgot password" from the sign-in page and limits the requests per address as sign-in does', async () => {
    const limited = await startListeningApp({ SMTP_URL: smtp.url, RATE_LIMIT_SIGNIN_PER_MINUTE: '3' });
    try {
      const browser = new OidcClient(limited.origin);
      const page = await browser.request(await browser.startSignIn());
      expect(await page.text()).toContain('href="/oidc/ui/forgot?lang=fr">Mot de passe oublié ?</a>');
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await browser.postForm('/oidc/ui/forgot', { email: `x${i}@example.com` })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
