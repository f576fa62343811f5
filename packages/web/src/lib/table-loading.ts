/** What a list query tells a table about loading (the fields TanStack Query's results carry). */
export interface ListQueryState {
  isPending: boolean;
  isFetching: boolean;
  isPlaceholderData: boolean;
}

/**
 * Whether a table shows its loading veil: before the first answer, and while it shows the previous
 * page's or filter's rows. A refetch in the background (a real-time message, the window regaining
 * focus) keeps the rows as they are instead of dimming them.
 */
export function tableLoading(query: ListQueryState): boolean {
  return query.isPending || (query.isFetching && query.isPlaceholderData);
}
