import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ApiError } from '../errors.ts';

/** One error handler for the whole API: every failure becomes the `{code, message, data}` envelope. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof ApiError) {
      if (err.retryAfterSeconds !== undefined) reply.header('retry-after', String(err.retryAfterSeconds));
      return reply.status(err.status).send({
        code: err.status,
        message: err.message,
        data: { error: err.error, ...(err.fields ? { fields: err.fields } : {}) },
      });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const v of err.validation) {
        const key = v.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
        fields[key] ??= v.message ?? 'Invalid value.';
      }
      return reply
        .status(400)
        .send({ code: 400, message: 'Validation failed.', data: { error: 'validation-failed', fields } });
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply
        .status(413)
        .send({ code: 413, message: 'The request body is too large.', data: { error: 'payload-too-large' } });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply
        .status(err.statusCode)
        .send({ code: err.statusCode, message: err.message, data: { error: 'bad-request' } });
    }
    req.log.error(err);
    return reply.status(500).send({
      code: 500,
      message: 'Internal error; quote the request id to the administrator.',
      data: { error: 'internal', requestId: String(req.id) },
    });
  });
}
