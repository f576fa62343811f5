import type { Envelope } from '@sextant/api';

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
