import type { Ability, ResourceNums } from '@sextant/api';
import { boolean, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const roles = pgTable('roles', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  abilities: jsonb('abilities').$type<Ability[]>().notNull().default([]),
  resourceNums: jsonb('resource_nums').$type<ResourceNums>().notNull().default({}),
  builtin: boolean('builtin').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
