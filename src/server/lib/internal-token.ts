import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { forbidden, HttpProblem } from './problems.ts';

/**
 * Calls for the platform's own tools (`/v1/internal/*`, `/metrics`) take the INTERNAL_TOKEN secret,
 * `given` from the call's header. Without INTERNAL_TOKEN they are off and answer as any unknown
 * path does; a wrong or missing secret is 403.
 */
export function checkInternalToken(request: FastifyRequest, expected: string | undefined, given: string | undefined): void {
  if (!expected) throw new HttpProblem(404, 'request.routeNotFound', { method: request.method, path: request.url.split('?')[0]! });
  if (!sameSecret(given, expected)) throw forbidden('auth.internalToken');
}

/** Constant-time comparison, so response times do not reveal the token. */
function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
