/** accounts.list-boards (GET /api/v1/accounts/:id/boards): the boards of an account, where its platform has them (Pinterest). */
export interface ListBoardsCommand {
  workspaceId: string;
  accountId: string;
}

/** One board as the platform reports it: a Pinterest board's id is what `platformOptions.pinterest.boardId` takes. */
export interface PlatformBoard {
  id: string;
  name: string;
  description: string | null;
  /** Pinterest: PUBLIC, PROTECTED or SECRET. */
  privacy: string | null;
}

export interface BoardsReply {
  boards: PlatformBoard[];
}
