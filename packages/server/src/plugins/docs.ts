import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { PATHS } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** OpenAPI at /api/docs; each route's description names its required permission (see access.ts). */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: { info: { title: 'Sextant API', version: '0.1.0' } },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: PATHS.docs });
}
