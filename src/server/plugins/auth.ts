import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  FastifyTypeProvider,
  FastifyTypeProviderDefault,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerBase,
  RawServerDefault,
  RouteGenericInterface,
  preHandlerAsyncHookHandler,
} from 'fastify';
import type { FastifyRequestType, ResolveFastifyRequestType } from 'fastify/types/type-provider.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { forbidden, unauthorized } from '../lib/problems.ts';
import { TtlCache } from '../lib/ttl-cache.ts';
import type { Role } from '../../contract/user.ts';

/** Who the bearer token says the caller is. */
export interface Identity {
  /** `iss|sub`: unique across issuers. */
  subject: string;
  name: string;
  email: string | null;
  roles: string[];
  /** When the token was issued (`iat`, seconds), if it says: a deleted account's tokens issued before its deletion are refused. */
  issuedAt?: number;
}

/** The caller's platform user, made from the identity on the first call. */
export interface AuthUser {
  id: string;
  name: string;
  email: string | null;
  roles: string[];
}

/**
 * The type provider of a signed-in scope (see `signedIn`): TypeBox's, marked so that `request.user`
 * is an AuthUser there, where the scope's hook has set it, and `AuthUser | null` everywhere else.
 */
export interface SignedInTypeProvider extends TypeBoxTypeProvider {
  readonly signedIn: true;
}

/** What the routes of a signed-in scope are registered on. */
export type SignedInScope = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, SignedInTypeProvider>;

/** Who may call a route of a signed-in scope (any user, or one with these roles): kept in its config, read by the OpenAPI document. */
interface Access {
  roles: readonly Role[] | null;
}

declare module 'fastify' {
  // The type parameters repeat Fastify's own, as a merged declaration must, used or not.
  /* eslint-disable @typescript-eslint/no-unused-vars */
  interface FastifyRequest<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
    RawServer extends RawServerBase = RawServerDefault,
    RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
    SchemaCompiler extends FastifySchema = FastifySchema,
    TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
    ContextConfig = ContextConfigDefault,
    Logger extends FastifyBaseLogger = FastifyBaseLogger,
    RequestType extends FastifyRequestType = ResolveFastifyRequestType<TypeProvider, SchemaCompiler, RouteGeneric>,
  > {
    user: TypeProvider extends SignedInTypeProvider ? AuthUser : AuthUser | null;
  }
  /* eslint-enable @typescript-eslint/no-unused-vars */
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyInstance {
    /** onRequest hook for calls that need no token: sets request.user when a valid one is given, else leaves it null. */
    identify: preHandlerAsyncHookHandler;
    /** The platform user of a valid bearer token; 401 without one. */
    userOf: (request: FastifyRequest) => Promise<AuthUser>;
    /** Who a valid bearer token names, or null (no token, or a bad one); never throws. Cached per token. */
    identityOf: (request: FastifyRequest) => Promise<Identity | null>;
  }
}

interface AuthOptions {
  issuer: string;
  audience: string;
  /** The embedded provider's public keys, checked without a network round trip. */
  localJwks?: JSONWebKeySet | undefined;
  /** Finds or makes the platform user for an identity. */
  resolveUser: (identity: Identity) => Promise<AuthUser>;
}

/** Finds the issuer's JWKS through its discovery document, once. */
function remoteKeys(issuer: string): JWTVerifyGetKey {
  let keys: Promise<JWTVerifyGetKey> | undefined;
  const load = async () => {
    const res = await fetch(`${issuer}/.well-known/openid-configuration`);
    if (!res.ok) throw new Error(`discovery document of ${issuer} answered ${res.status}`);
    const doc = (await res.json()) as { jwks_uri?: string };
    if (!doc.jwks_uri) throw new Error(`discovery document of ${issuer} has no jwks_uri`);
    return createRemoteJWKSet(new URL(doc.jwks_uri));
  };
  return async (header, token) => {
    keys ??= load().catch((err: unknown) => {
      keys = undefined; // try discovery again on the next request
      throw err;
    });
    return (await keys)(header, token);
  };
}

function identityFromClaims(issuer: string, claims: JWTPayload): Identity {
  const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);
  const realm = claims.realm_access as { roles?: unknown } | undefined;
  const roles = Array.isArray(realm?.roles) ? realm.roles.filter((r): r is string => typeof r === 'string') : [];
  return {
    subject: `${issuer}|${claims.sub}`,
    name: (str(claims.preferred_username) ?? str(claims.name) ?? String(claims.sub)).slice(0, 100),
    email: str(claims.email)?.slice(0, 200) ?? null,
    roles,
    ...(typeof claims.iat === 'number' ? { issuedAt: claims.iat } : {}),
  };
}

const VERIFIED_TOKENS_KEPT = 10_000;
const VERIFIED_TOKEN_TTL_MS = 5 * 60_000;

export default fp(
  async function auth(app: FastifyInstance, options: AuthOptions) {
    const keys = options.localJwks ? createLocalJWKSet(options.localJwks) : remoteKeys(options.issuer);

    // A client sends the same token on every call until it refreshes it: checking its signature once
    // is enough. Entries never outlive the token's own expiry.
    const verified = new TtlCache<string, Identity>(VERIFIED_TOKENS_KEPT);

    async function verify(request: FastifyRequest): Promise<Identity> {
      const header = request.headers.authorization;
      const match = header?.match(/^Bearer\s+([\w-]+\.[\w-]+\.[\w-]+)$/i);
      if (!match?.[1]) throw unauthorized();
      const known = verified.get(match[1]);
      if (known) return known;
      try {
        const { payload } = await jwtVerify(match[1], keys, {
          issuer: options.issuer,
          audience: options.audience,
          algorithms: ['RS256', 'PS256', 'ES256'],
          // A token without an expiry would open the API forever to whoever copies it once.
          requiredClaims: ['exp', 'sub'],
        });
        // The subject is the user's key: a number or an object would name someone else once turned into text.
        if (typeof payload.sub !== 'string' || payload.sub.length === 0 || payload.sub.length > 255) throw new Error('the sub claim is not a non-empty string');
        const identity = identityFromClaims(options.issuer, payload);
        verified.set(match[1], identity, Math.min(payload.exp! * 1000 - Date.now(), VERIFIED_TOKEN_TTL_MS));
        return identity;
      } catch (err) {
        request.log.debug({ err }, 'bearer token refused');
        throw unauthorized('auth.tokenInvalid');
      }
    }

    app.decorate('identityOf', (request: FastifyRequest) => (request.headers.authorization ? verify(request).catch(() => null) : Promise.resolve(null)));
    app.decorateRequest('user', null);
    app.decorate('userOf', async (request: FastifyRequest) => options.resolveUser(await verify(request)));
    app.decorate('identify', async function identify(request: FastifyRequest) {
      if (!request.headers.authorization) return;
      // A stale token on a public page must not break it: the caller is then simply anonymous.
      const identity = await verify(request).catch(() => undefined);
      if (identity) request.user = await options.resolveUser(identity);
    });
  },
  { name: 'auth' },
);

/**
 * Registers `routes` in a scope of their own with one onRequest hook: 401 without a valid bearer
 * token, and, when `roles` are given, 403 unless the user has one of them. Inside, `request.user` is
 * typed as set. Each route's config says who may call it, for the OpenAPI document.
 */
export async function signedIn(app: FastifyInstance, roles: readonly Role[] | null, routes: (scope: SignedInScope) => Promise<void> | void): Promise<void> {
  await app.register(async (scope) => {
    const access: Access = { roles };
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, access };
    });
    scope.addHook('onRequest', async (request) => {
      const user = await app.userOf(request);
      request.user = user;
      if (roles && !roles.some((r) => user.roles.includes(r))) throw forbidden();
    });
    await routes(scope.withTypeProvider<SignedInTypeProvider>());
  });
}
