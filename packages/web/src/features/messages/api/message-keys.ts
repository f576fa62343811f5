/** Query keys of a report's message history and agent heart-beats, refreshed by real-time pushes. */
export const reportMessagesKey = (reportId: string) => ['messages', 'history', reportId] as const;
export const heartbeatsKey = (reportId: string) => ['messages', 'heartbeats', reportId] as const;
