/** Query keys of the report screens; real-time pushes invalidate the `reports` root. */
export const reportsRoot = ['reports'] as const;
export const reportListKey = (query: unknown) => ['reports', 'search', query] as const;
export const reportKey = (reportId: string) => ['reports', 'one', reportId] as const;
export const reportDetailsKey = (reportId: string, query: unknown) => ['reports', 'details', reportId, query] as const;
export const reportFilesKey = (reportId: string) => ['reports', 'files', reportId] as const;
export const reportSourceKey = (reportId: string, path: string) => ['reports', 'source', reportId, path] as const;
