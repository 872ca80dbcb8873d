import type { FastifyRequest } from 'fastify';
import { pickLang } from '../identity/pages.ts';

/** The reader's language: the site's locale cookie, else the browser's, French by default. */
export const langOf = (request: FastifyRequest) => pickLang(request.headers.cookie, request.headers['accept-language']);

/** PDF when the caller asks for it before (or instead of) JSON. */
export function wantsPdf(accept: string | undefined): boolean {
  const types = (accept ?? '').split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  const pdf = types.indexOf('application/pdf');
  const json = types.indexOf('application/json');
  return pdf >= 0 && (json < 0 || pdf < json);
}
