/** A page of a list: its items under some key, and the cursor of the next page (null on the last). */
export interface Page {
  nextCursor: string | null;
}

/**
 * Every page of a list, following nextCursor until it is null: `fetchPage`
 * gets undefined for the first page and the previous page's nextCursor after.
 */
export async function* pagesOf<P extends Page>(fetchPage: (cursor: string | undefined) => Promise<P>): AsyncGenerator<P, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield page;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

/** Every item of a list, page after page (see pagesOf). */
export async function* itemsOf<P extends Page, I>(fetchPage: (cursor: string | undefined) => Promise<P>, items: (page: P) => I[]): AsyncGenerator<I, void, undefined> {
  for await (const page of pagesOf(fetchPage)) yield* items(page);
}
