/**
 * A route's response serialiser that writes the answer as it is (`JSON.stringify`), without the zod
 * schema's runtime check: for hot read routes whose handler builds the answer field by field from the
 * schema's inferred type, so TypeScript has already proven its shape. On the home screen's list that
 * check cost more server CPU than the SQL (bench/risks.ts). The schema still documents the route
 * (OpenAPI); a test of the route must parse its answers with the schema, since nothing else will.
 */
export const typedJson = { serializerCompiler: () => (data: unknown) => JSON.stringify(data) };
