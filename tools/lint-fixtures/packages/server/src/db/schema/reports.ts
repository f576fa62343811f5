export const reports = pgTable('reports', {});
