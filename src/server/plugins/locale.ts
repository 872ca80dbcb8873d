import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { cookieLocale } from '../lib/messages.ts';
import { pickLang } from '../identity/pages.ts';
import type { Locale } from '../../contract/messages.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in caller's saved locale (French for anyone else): what API text is rendered in. */
    locale: Locale;
    /**
     * The language to answer this caller in, even before the route's hooks ran (an error thrown by
     * authentication, the body parser or the validator): the signed-in user's saved locale, else the
     * `locale` cookie, else Accept-Language, else French.
     */
    callerLocale(): Promise<Locale>;
  }
}

const settled = Symbol('localeSettled');
type Settled = FastifyRequest & { [settled]?: true };

interface LocaleOptions {
  /** Saves the language the caller's locale cookie names, when it changed, and answers the saved one. */
  remember: (userId: string, chosen: Locale | undefined) => Promise<Locale>;
}

/**
 * The signed-in caller's language. The web app and the API share an origin, so every call of the
 * app carries its locale cookie: a change of language is saved on the user at their next call,
 * and what is sent to them later (their stream's notices) is in it too.
 */
export default fp(
  async function locale(app: FastifyInstance, options: LocaleOptions) {
    app.decorateRequest('locale', 'fr');
    const settle = async (request: Settled) => {
      if (!request.user || request[settled]) return;
      request.locale = await options.remember(request.user.id, cookieLocale(request.headers.cookie));
      request[settled] = true;
    };
    app.decorateRequest('callerLocale', async function callerLocale(this: Settled) {
      if (this.user) {
        await settle(this);
        return this.locale;
      }
      return pickLang(this.headers.cookie, this.headers['accept-language']);
    });
    // After the routes' authentication (onRequest), before their handlers.
    app.addHook('preHandler', settle);
  },
  { name: 'locale' },
);
