import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AccountSecurity, EmailChange, PasswordChange, RecoveryCodes, TwoFactorDisable, TwoFactorEnable, TwoFactorSetup } from '../../contract/account.ts';
import { signedIn } from '../plugins/auth.ts';
import { forbidden } from '../lib/problems.ts';
import type { UsersService } from '../modules/users/service.ts';
import type { AccountSecurity as Security } from './security.ts';

const tags = ['account'];

/**
 * The account's own settings on the embedded provider (/v1/account/…): with another issuer these
 * routes do not exist, and the web app links to that issuer's account console instead.
 */
const routes: FastifyPluginAsyncTypebox<{ security: Security; users: UsersService; issuer: string }> = async (app, { security, users, issuer }) => {
  /** The account a signed-in user is: their token's subject at our issuer. */
  const accountOf = async (userId: string) => {
    const subject = (await users.get(userId))?.subject ?? '';
    if (!subject.startsWith(`${issuer}|`)) throw forbidden('account.externalIssuer');
    return subject.slice(issuer.length + 1);
  };
  const noContent = { 204: Type.Null() };

  await signedIn(app, null, (player) => {
    player.get('/v1/account/security', { schema: { tags, summary: 'The account’s email and two-factor sign-in', response: { 200: AccountSecurity }, problems: [403] } }, async (request) =>
      security.status(await accountOf(request.user.id)),
    );

    player.put(
      '/v1/account/password',
      {
        schema: {
          tags,
          summary: 'Change the password: the current one is asked, the new one follows the sign-up rules (a wrong current one changes nothing)',
          body: PasswordChange,
          response: noContent,
          problems: [403],
        },
      },
      async (request, reply) => {
        await security.changePassword(await accountOf(request.user.id), request.body.currentPassword, request.body.newPassword);
        return reply.status(204).send(null);
      },
    );

    player.post(
      '/v1/account/email',
      {
        schema: {
          tags,
          summary: 'Ask to change the email: a link goes to the new address, and the change is made only when it is opened (within 24 hours); the old address is then told',
          body: EmailChange,
          response: { 202: Type.Null() },
          problems: [403],
        },
      },
      async (request, reply) => {
        await security.requestEmailChange(await accountOf(request.user.id), request.body.password, request.body.newEmail);
        // Accepted, no body: the change is made when the mailed link is opened.
        return reply.status(202).send(undefined as never);
      },
    );

    player.post(
      '/v1/account/two-factor/setup',
      {
        schema: {
          tags,
          summary: 'A new authenticator secret and its QR code; two-factor turns on only once a first code confirms it',
          response: { 200: TwoFactorSetup },
          problems: [403],
        },
        config: { secretAnswer: true },
      },
      async (request) => security.setupTwoFactor(await accountOf(request.user.id)),
    );

    player.post(
      '/v1/account/two-factor',
      {
        schema: {
          tags,
          summary: 'Turn two-factor sign-in on with a first code; answers 10 single-use recovery codes, shown once',
          body: TwoFactorEnable,
          response: { 200: RecoveryCodes },
          problems: [403],
        },
        config: { secretAnswer: true },
      },
      async (request) => ({ recoveryCodes: await security.enableTwoFactor(await accountOf(request.user.id), request.body.code) }),
    );

    player.post(
      '/v1/account/two-factor/disable',
      { schema: { tags, summary: 'Turn two-factor sign-in off: the password and a code (or a recovery code) are asked', body: TwoFactorDisable, response: noContent, problems: [403] } },
      async (request, reply) => {
        await security.disableTwoFactor(await accountOf(request.user.id), request.body.password, request.body.code);
        return reply.status(204).send(null);
      },
    );
  });
};

export default routes;
