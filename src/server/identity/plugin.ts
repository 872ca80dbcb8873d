import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AccountsService } from './accounts.ts';
import { sweepExpired } from './adapter.ts';
import type { IdentityKeys } from './keys.ts';
import { LOGOUT_SCRIPT, LOGOUT_SCRIPT_BODY, pickLang, renderForm, renderMessage, renderTotp, strings, type Lang, type PageError } from './pages.ts';
import { recoveryPages } from './recovery.ts';
import accountRoutes from './routes.ts';
import { AccountSecurity, forgetAccount } from './security.ts';
import type { Services } from '../services.ts';
import { createProvider } from './provider.ts';
import { userinfoHandler } from './userinfo.ts';
import type { WindowCounters } from '../lib/counters.ts';

const MOUNT = '/oidc';
type Form = Record<string, string | undefined>;

interface IdentityOptions {
  config: Config;
  database: Database;
  keys: IdentityKeys;
  /** Failed sign-ins per account, counted across replicas when they share Redis. */
  failures: WindowCounters;
  /** The people's saved languages (users), the mailer and the clock the app runs on. */
  services: Pick<Services, 'users' | 'mailer' | 'runtime' | 'accountDeletion'>;
}

/** How long the proof of a sign-in's first step waits for its code. */
const PENDING_MS = 10 * 60_000;

/** The embedded identity provider at /oidc: the protocol endpoints and our sign-in / sign-up pages. */
export default fp(
  async function identity(app: FastifyInstance, { config, database, keys, failures, services }: IdentityOptions) {
    const accounts = new AccountsService(database.db);
    const clock = services.runtime.clock;
    const security = new AccountSecurity(database.db, {
      mailer: services.mailer,
      failures,
      localeOf: (accountId) => services.users.localeOfSubject(`${config.oidc.issuer}|${accountId}`),
      clock,
      publicUrl: config.publicUrl,
      triesPerMinute: config.rateLimit.signInPerMinute,
      log: services.runtime.log,
    });
    await app.register(accountRoutes, { security, users: services.users, issuer: config.oidc.issuer });
    // A deleted account's sign-in ends with it: its password (and code) are asked first.
    const ours = `${config.oidc.issuer}|`;
    const accountOf = (subject: string) => (subject.startsWith(ours) ? subject.slice(ours.length) : undefined);
    services.accountDeletion.useIdentity({
      confirm: async (subject, { password, code }) => {
        const id = accountOf(subject);
        if (id) await security.confirmDeletion(id, password ?? '', code);
      },
      forget: async (tx, subject) => {
        const id = accountOf(subject);
        if (id) await forgetAccount(tx, id);
      },
    });

    /**
     * The proof that a sign-in passed its password, carried by the code form: it names the account
     * and this interaction, and expires, signed with the provider's cookie key so no one forges it.
     */
    const sign = (payload: string) => createHmac('sha256', keys.cookieKeys[0]!).update(payload).digest('base64url');
    const pendingProof = (uid: string, accountId: string) => {
      const until = clock().getTime() + PENDING_MS;
      return `${accountId}.${until}.${sign(`${uid}|${accountId}|${until}`)}`;
    };
    const provenAccount = (uid: string, proof: string): string | undefined => {
      const [accountId = '', until = '', mac = ''] = proof.split('.');
      const expected = Buffer.from(sign(`${uid}|${accountId}|${until}`));
      const given = Buffer.from(mac);
      if (given.length !== expected.length || !timingSafeEqual(given, expected) || Number(until) < clock().getTime()) return undefined;
      return accountId;
    };
    const provider = createProvider(config, database.db, keys, accounts);
    const callback = provider.callback();

    // Protocol endpoints: the provider reads the raw request itself, so no body parser may run here.
    await app.register(async (protocol) => {
      protocol.removeAllContentTypeParsers();
      protocol.addContentTypeParser('*', (_request, _payload, done) => done(null));
      const pass = async (request: FastifyRequest, reply: FastifyReply) => {
        reply.hijack();
        // Mounted like Express would: the provider finds its mount path from originalUrl.
        const raw = request.raw as typeof request.raw & { originalUrl?: string };
        raw.originalUrl = raw.url;
        raw.url = raw.url!.slice(MOUNT.length) || '/';
        await callback(request.raw, reply.raw);
      };
      protocol.all(MOUNT, { schema: { hide: true } }, pass);
      protocol.all(`${MOUNT}/*`, { schema: { hide: true } }, pass);
    });

    // Sign-in and sign-up pages, in the site's look and language.
    await app.register(async (pages) => {
      pages.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8192 }, (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      });
      const lang = (request: FastifyRequest): Lang => {
        const asked = (request.query as Form).lang;
        return asked === 'en' || asked === 'fr' ? asked : pickLang(request.headers.cookie, request.headers['accept-language']);
      };
      const html = (reply: FastifyReply, status: number, body: string) => reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
      const expired = (request: FastifyRequest, reply: FastifyReply) => {
        const l = lang(request);
        return html(reply, 400, renderMessage(l, strings[l].errorTitle, strings[l].errors.expired, { href: '/dashboard', label: strings[l].errorRetry }));
      };
      const details = async (request: FastifyRequest, reply: FastifyReply) => {
        try {
          return await provider.interactionDetails(request.raw, reply.raw);
        } catch {
          return undefined;
        }
      };
      const finish = async (request: FastifyRequest, reply: FastifyReply, accountId: string) => {
        const to = await provider.interactionResult(request.raw, reply.raw, { login: { accountId } }, { mergeWithLastSubmission: false });
        return reply.redirect(to, 303);
      };
      // Before the provider's catch-all: its own userinfo refuses the API's tokens it issues.
      const userinfo = userinfoHandler(config, keys, accounts);
      pages.get(`${MOUNT}/me`, { schema: { hide: true } }, userinfo);
      pages.post(`${MOUNT}/me`, { schema: { hide: true } }, userinfo);
      pages.get(LOGOUT_SCRIPT, { schema: { hide: true } }, async (_request, reply) =>
        reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(LOGOUT_SCRIPT_BODY),
      );
      // Per address, whatever headers come with the form (an Authorization header must not buy a
      // fresh allowance); and per account tried, so many addresses cannot guess one password.
      const signInLimit = { rateLimit: { max: config.rateLimit.signInPerMinute, timeWindow: '1 minute', keyGenerator: (request: FastifyRequest) => `signin:${request.ip}` } };
      // Failed sign-ins per account, in Redis when replicas share it (lib/counters.ts).
      const failedRecently = async (login: string) => (await failures.count(`signin-failed:${login.toLowerCase()}`)) >= config.rateLimit.signInPerMinute;
      const countFailure = (login: string) => failures.hit(`signin-failed:${login.toLowerCase()}`, 60_000);

      pages.get<{ Params: { uid: string }; Querystring: Form }>(`${MOUNT}/interaction/:uid`, { schema: { hide: true } }, async (request, reply) => {
        const interaction = await details(request, reply);
        if (!interaction || interaction.uid !== request.params.uid) return expired(request, reply);
        const mode = request.query.mode === 'signup' ? 'signup' : 'signin';
        return html(reply, 200, renderForm({ lang: lang(request), uid: interaction.uid, mode }));
      });

      pages.post<{ Params: { uid: string }; Body: Form }>(`${MOUNT}/interaction/:uid/login`, { schema: { hide: true }, config: signInLimit }, async (request, reply) => {
        const interaction = await details(request, reply);
        if (!interaction || interaction.uid !== request.params.uid) return expired(request, reply);
        const login = (request.body?.login ?? '').slice(0, 254);
        if (await failedRecently(login)) {
          return html(reply.header('retry-after', '60'), 429, renderForm({ lang: lang(request), uid: interaction.uid, mode: 'signin', error: 'tooMany', values: { login } }));
        }
        const account = await accounts.authenticate(login, (request.body?.password ?? '').slice(0, 200));
        if (!account) {
          await countFailure(login);
          return html(reply, 401, renderForm({ lang: lang(request), uid: interaction.uid, mode: 'signin', error: 'wrongPassword', values: { login } }));
        }
        if (account.totpEnabled) return html(reply, 200, renderTotp(lang(request), interaction.uid, pendingProof(interaction.uid, account.id)));
        return finish(request, reply, account.id);
      });

      pages.post<{ Params: { uid: string }; Body: Form }>(`${MOUNT}/interaction/:uid/totp`, { schema: { hide: true }, config: signInLimit }, async (request, reply) => {
        const interaction = await details(request, reply);
        if (!interaction || interaction.uid !== request.params.uid) return expired(request, reply);
        const pending = (request.body?.pending ?? '').slice(0, 300);
        const accountId = provenAccount(interaction.uid, pending);
        const account = accountId ? await accounts.find(accountId) : undefined;
        if (!account?.totpEnabled) return expired(request, reply);
        const again = (status: number, error: PageError) => html(reply, status, renderTotp(lang(request), interaction.uid, pending, error));
        try {
          await security.refuseWhenTooMany(account.id);
        } catch {
          return again(429, 'tooMany');
        }
        if (!(await security.secondFactor(account, (request.body?.code ?? '').slice(0, 20)))) {
          await security.countCodeFailure(account.id);
          return again(401, 'wrongCode');
        }
        return finish(request, reply, account.id);
      });

      recoveryPages(pages, { security, lang, html, limit: signInLimit });

      pages.post<{ Params: { uid: string }; Body: Form }>(`${MOUNT}/interaction/:uid/signup`, { schema: { hide: true }, config: signInLimit }, async (request, reply) => {
        const interaction = await details(request, reply);
        if (!interaction || interaction.uid !== request.params.uid) return expired(request, reply);
        const values = { username: (request.body?.username ?? '').slice(0, 64), email: (request.body?.email ?? '').slice(0, 254) };
        const result = await accounts.signUp({ ...values, password: (request.body?.password ?? '').slice(0, 200) });
        if ('error' in result) {
          const status = result.error.endsWith('Taken') ? 409 : 400;
          return html(reply, status, renderForm({ lang: lang(request), uid: interaction.uid, mode: 'signup', error: result.error as PageError, values }));
        }
        return finish(request, reply, result.account.id);
      });
    });

    const sweep = setInterval(() => void sweepExpired(database.db).catch(() => {}), 3600_000).unref();
    app.addHook('onClose', async () => clearInterval(sweep));
  },
  { name: 'identity' },
);
