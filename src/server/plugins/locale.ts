import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { cookieLocale } from '../lib/messages.ts';
import type { Locale } from '../../contract/messages.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in caller's saved locale (French for anyone else): what API text is rendered in. */
    locale: Locale;
  }
}

interface LocaleOptions {
  /** Saves the language the caller's locale cookie names, when it changed, and answers the saved one. */
  remember: (userId: string, chosen: Locale | undefined) => Promise<Locale>;
}

/**
 * The signed-in caller's language. The web app and the API share an origin, so every call of the
 * app carries its locale cookie: a change of language is saved on the user at their next call,
 * and what is sent to them later (their stream's notices) is in it too.
 */
export default fp(async function locale(app: FastifyInstance, options: LocaleOptions) {
  app.decorateRequest('locale', 'fr');
  // After the routes' authentication (onRequest), before their handlers.
  app.addHook('preHandler', async (request: FastifyRequest) => {
    if (request.user) request.locale = await options.remember(request.user.id, cookieLocale(request.headers.cookie));
  });
});
