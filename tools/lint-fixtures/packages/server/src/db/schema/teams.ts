export const teams = pgTable('teams', {});
