/**
 * One page of a newest-first list. `nextCursor` is null on the last page only:
 * a search may end a page short (ListingSearchResult) with a cursor to go on.
 */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Paging arguments of a repository list: at most `limit` rows with id < `before`, id descending. */
export interface PageQuery {
  limit: number;
  before?: string | undefined;
}
