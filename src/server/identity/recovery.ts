import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { renderConfirmEmail, renderForgot, renderMessage, renderReset, strings, type Lang } from './pages.ts';
import type { AccountSecurity } from './security.ts';

type Form = Record<string, string | undefined>;

interface PageTools {
  security: AccountSecurity;
  lang: (request: FastifyRequest) => Lang;
  html: (reply: FastifyReply, status: number, body: string) => FastifyReply;
  /** The sign-in's rate limit per address, which these forms share. */
  limit: object;
}

/**
 * The pages a mailed link or a forgotten password leads to, outside any sign-in (the link may be
 * opened in another browser): "forgot password", the reset link's form, and an email change's
 * confirmation.
 */
export function recoveryPages(pages: FastifyInstance, { security, lang, html, limit }: PageTools) {
  const hide = { hide: true };
  const dead = (request: FastifyRequest, reply: FastifyReply) => {
    const l = lang(request);
    return html(reply, 410, renderMessage(l, strings[l].linkDeadTitle, strings[l].errors.linkExpired, { href: `/oidc/ui/forgot?lang=${l}`, label: strings[l].forgotHeading }));
  };
  const signInLink = (l: Lang) => ({ href: '/dashboard', label: strings[l].signInAgain });

  pages.get('/oidc/ui/forgot', { schema: hide }, async (request, reply) => html(reply, 200, renderForgot(lang(request))));

  pages.post<{ Body: Form }>('/oidc/ui/forgot', { schema: hide, config: limit }, async (request, reply) => {
    const l = lang(request);
    // Sent after the answer, so neither its words nor its timing tell whether the address has an account.
    void security.requestReset((request.body?.email ?? '').slice(0, 254)).catch((err: unknown) => request.log.error({ err }, 'password reset email failed'));
    return html(reply, 200, renderMessage(l, strings[l].forgotSentTitle, strings[l].forgotSent, signInLink(l)));
  });

  pages.get<{ Querystring: Form }>('/oidc/ui/reset', { schema: hide }, async (request, reply) => {
    const token = (request.query.token ?? '').slice(0, 100);
    if (!(await security.liveLink(token, 'reset'))) return dead(request, reply);
    return html(reply, 200, renderReset(lang(request), token));
  });

  pages.post<{ Body: Form }>('/oidc/ui/reset', { schema: hide, config: limit }, async (request, reply) => {
    const l = lang(request);
    const token = (request.body?.token ?? '').slice(0, 100);
    const result = await security.resetPassword(token, (request.body?.password ?? '').slice(0, 200));
    if (result === 'dead') return dead(request, reply);
    if (result === 'weak') return html(reply, 400, renderReset(l, token, 'passwordWeak'));
    return html(reply, 200, renderMessage(l, strings[l].resetDoneTitle, strings[l].resetDone, signInLink(l)));
  });

  pages.get<{ Querystring: Form }>('/oidc/ui/email', { schema: hide }, async (request, reply) => {
    const token = (request.query.token ?? '').slice(0, 100);
    if (!(await security.liveLink(token, 'email'))) return dead(request, reply);
    return html(reply, 200, renderConfirmEmail(lang(request), token));
  });

  pages.post<{ Body: Form }>('/oidc/ui/email', { schema: hide, config: limit }, async (request, reply) => {
    const l = lang(request);
    const email = await security.confirmEmail((request.body?.token ?? '').slice(0, 100));
    if (!email) return dead(request, reply);
    return html(reply, 200, renderMessage(l, strings[l].emailDoneTitle, strings[l].emailDone.replace('{{email}}', email), { href: '/dashboard/account', label: strings[l].toAccount }));
  });
}
