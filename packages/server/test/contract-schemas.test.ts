import { UserRowSchema } from '@sextant/api';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UserRowSchema as ServerUserRowSchema } from '../src/modules/users/routes.ts';

// Issue 33: the web checks the users list with packages/api's UserRowSchema; until the users module
// declares its answer with that schema, the two must describe the same row.
describe('the contract the web checks answers with', () => {
  it('describes a user row as the users routes answer it', () => {
    expect(z.toJSONSchema(UserRowSchema)).toEqual(z.toJSONSchema(ServerUserRowSchema));
  });
});
