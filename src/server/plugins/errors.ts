import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { HttpProblem, problemBody, type FieldError } from '../lib/problems.ts';

export function sendProblem(reply: FastifyReply, status: number, detail?: string, errors?: FieldError[]) {
  return reply
    .status(status)
    .type('application/problem+json')
    .send(problemBody(status, detail, errors));
}

/** Turns ajv's errors into `{ field, message }` with a dotted field path ("settings.motd"). */
function fieldErrors(error: FastifyError): FieldError[] {
  return (error.validation ?? []).map((v) => {
    const base = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const params = v.params as Record<string, unknown>;
    const extra = typeof params.additionalProperty === 'string' ? params.additionalProperty : typeof params.missingProperty === 'string' ? params.missingProperty : '';
    const field = [error.validationContext === 'body' ? '' : error.validationContext, base, extra].filter(Boolean).join('.');
    const message = typeof params.additionalProperty === 'string' ? 'is not an accepted field' : (v.message ?? 'is invalid');
    return { field: field || String(error.validationContext ?? 'body'), message };
  });
}

/** One error handler for the whole API: problem+json, and 5xx never say what went wrong inside. */
export default fp(async function errors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpProblem) {
      reply.headers(error.headers);
      return sendProblem(reply, error.status, error.detail, error.errors);
    }
    if (error.validation) {
      const errors = fieldErrors(error);
      return sendProblem(reply, 400, `Invalid ${errors.map((e) => e.field).join(', ')}`, errors);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendProblem(reply, status, error.message);
    }
    request.log.error({ err: error }, 'request failed');
    return sendProblem(reply, 500, 'An unexpected error occurred. It has been logged.');
  });
});
