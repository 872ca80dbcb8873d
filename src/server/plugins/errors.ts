import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Locale, MessageParams } from '../../contract/messages.ts';
import { pickLang } from '../identity/pages.ts';
import { HttpProblem, problemBody, renderProblem, statusKey, type ErrorKey, type FieldProblem } from '../lib/problems.ts';

/** The caller's language; the header's when the user's saved one cannot be read (the database is down). */
async function localeOf(request: FastifyRequest): Promise<Locale> {
  try {
    if (typeof request.callerLocale === 'function') return await request.callerLocale();
  } catch (err) {
    request.log.warn({ err }, 'the caller’s locale could not be read');
  }
  return pickLang(request.headers.cookie, request.headers['accept-language']);
}

/** Sends `problem` as problem+json, its detail and field errors in the caller's language. */
export async function sendProblem(reply: FastifyReply, problem: HttpProblem) {
  const locale = await localeOf(reply.request);
  const { detail, errors } = renderProblem(problem.key, problem.params, problem.errors, locale);
  return reply
    .status(problem.status)
    .headers(problem.headers)
    .header('content-language', locale)
    .type('application/problem+json')
    .send(problemBody(problem.status, problem.key, detail, errors, problem.params));
}

const scalar = (v: unknown): string | number => (typeof v === 'number' || typeof v === 'string' ? v : Array.isArray(v) ? v.join(', ') : JSON.stringify(v));

/** Ajv's keywords the catalogue words; any other is "is invalid". */
const worded = new Set([
  'required',
  'type',
  'minLength',
  'maxLength',
  'pattern',
  'enum',
  'format',
  'additionalProperties',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'const',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'anyOf',
  'oneOf',
  'not',
  'propertyNames',
  'dependentRequired',
]);

/** Turns ajv's errors into field problems with a dotted field path ("settings.motd") and a worded reason. */
function fieldProblems(error: FastifyError): FieldProblem[] {
  return (error.validation ?? []).map((v) => {
    const base = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const params = v.params as Record<string, unknown>;
    const extra = typeof params.additionalProperty === 'string' ? params.additionalProperty : typeof params.missingProperty === 'string' ? params.missingProperty : '';
    const field = [error.validationContext === 'body' ? '' : error.validationContext, base, extra].filter(Boolean).join('.');
    const key = (worded.has(v.keyword) ? `validation.${v.keyword}` : 'validation.invalid') as ErrorKey;
    return { field: field || String(error.validationContext ?? 'body'), key, params: Object.fromEntries(Object.entries(params).map(([k, p]) => [k, scalar(p)])) as MessageParams };
  });
}

/** Fastify's own refusals (body parser, router), as texts of the catalogue. */
function frameworkProblem(error: FastifyError, request: FastifyRequest, status: number): HttpProblem {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpProblem(status, 'request.unsupportedMediaType', { type: request.headers['content-type'] ?? '' });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpProblem(status, 'request.bodyTooLarge');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new HttpProblem(status, 'request.emptyJsonBody');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new HttpProblem(status, 'request.invalidJson');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new HttpProblem(status, 'request.invalidContentLength');
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_INVALID_URL':
      return new HttpProblem(status, 'request.badUrl');
  }
  // The JSON parser's SyntaxError carries no code.
  if (error instanceof SyntaxError && status === 400) return new HttpProblem(status, 'request.invalidJson');
  return new HttpProblem(status, statusKey(status));
}

/** Answers a refusal of Fastify's own (a URL the router cannot decode) like every other error. */
export const sendFrameworkError = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => sendProblem(reply, frameworkProblem(error, request, error.statusCode ?? 400));

/** One error handler for the whole API: problem+json in the caller's language, and 5xx never say what went wrong inside. */
export default fp(
  async function errors(app: FastifyInstance) {
    app.setErrorHandler(async (error: FastifyError, request, reply) => {
      if (error instanceof HttpProblem) return sendProblem(reply, error);
      if (error.validation) return sendProblem(reply, new HttpProblem(400, 'request.invalidFields', {}, { errors: fieldProblems(error) }));
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) return sendProblem(reply, frameworkProblem(error, request, status));
      request.log.error({ err: error }, 'request failed');
      return sendProblem(reply, new HttpProblem(500, 'request.unexpected'));
    });
  },
  { name: 'errors' },
);
