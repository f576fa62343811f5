import type { Envelope } from '@sextant/api';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import { serializerCompiler } from 'fastify-type-provider-zod';

/** The JSON text of answers already written, by the answer object (kept answers are written once). */
const written = new WeakMap<object, string>();

/**
 * A route's response serialiser for envelope answers that writes them as they are, without the zod
 * schema's runtime check: for hot read routes whose handler builds the answer field by field from the
 * schema's inferred type, so TypeScript has already proven its shape. On the home screen's list that
 * check cost more server CPU than the SQL (bench/risks.ts). The schema still documents the route
 * (OpenAPI); a test of the route must parse its answers with the schema, since nothing else will.
 *
 * An envelope's `data` is written once per object: a handler that answers with a kept object (the
 * risk read cache's, frozen) has its text written once, not on every request. Objects must therefore
 * not change once answered; handlers build a new one per request or give a frozen kept one.
 */
export const typedJson = {
  serializerCompiler: () => (answer: unknown) => {
    const { code, message, data } = answer as Envelope<unknown>;
    let text = typeof data === 'object' && data !== null ? written.get(data) : undefined;
    if (text === undefined) {
      text = JSON.stringify(data);
      if (typeof data === 'object' && data !== null && Object.isFrozen(data)) written.set(data, text);
    }
    return `{"code":${JSON.stringify(code)},"message":${JSON.stringify(message)},"data":${text}}`;
  },
};

/**
 * A route's response serialiser for answers kept by an answer cache (lib/generation-cache.ts): an
 * answer is checked and written by the zod schema as every route's is (fields outside the schema
 * dropped), but a kept answer (frozen) only the first time it is given; after that its text is given
 * again. Answers not frozen are written anew per request.
 */
export const checkedOnceJson = {
  serializerCompiler: (route: FastifyRouteSchemaDef<unknown>) => {
    const checked = serializerCompiler(route as Parameters<typeof serializerCompiler>[0]);
    const texts = new WeakMap<object, { code: unknown; message: unknown; text: string }>();
    return (answer: unknown) => {
      const { code, message, data } = answer as Envelope<unknown>;
      if (typeof data !== 'object' || data === null || !Object.isFrozen(data)) return checked(answer);
      const kept = texts.get(data);
      if (kept && kept.code === code && kept.message === message) return kept.text;
      const text = checked(answer);
      texts.set(data, { code, message, text });
      return text;
    };
  },
};
