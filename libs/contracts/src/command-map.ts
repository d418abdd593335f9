import type { BoardsReply, ListBoardsCommand } from './account-boards';
import type { AccountView, CompleteConnectCommand, ConnectCallbackCommand, ConnectCallbackReply, ConnectedAccountsReply, ConnectWithCredentialsCommand, DisconnectAccountCommand, RequireReauthCommand, StartConnectCommand, StartConnectReply } from './account-api';
import type {
  CompleteConnectLinkSignInCommand,
  ConnectLinkAppPasswordCommand,
  ConnectLinkCommand,
  ConnectLinkCreated,
  ConnectLinkPage,
  CreateConnectLinkCommand,
  FinishConnectLinkReply,
  RevokeConnectLinkCommand,
  StartConnectLinkSignInCommand,
  StartConnectLinkSignInReply,
} from './connect-links';
import type { BulkCreatePostsCommand, BulkCreatePostsReply } from './bulk-import';
import type { ErrorBody } from './error-codes';
import type { SetPostingScheduleCommand, SetPostingScheduleReply } from './queue-api';
import type {
  DeleteCommentReplyCommand,
  DeleteCommentReplyReply,
  IngestCommentsReply,
  IngestWebhookCommentsCommand,
  ModerateCommentCommand,
  ModerateCommentReply,
  ReplyToCommentCommand,
  ReplyToCommentReply,
} from './comment-commands';
import type {
  AbandonPublicationCommand,
  AbandonPublicationReply,
  CreatePostCommand,
  DeletePostCommand,
  EditPostCommand,
  FireScheduledPostCommand,
  FireScheduledPostReply,
  GetPublicationCommand,
  PostCommandReply,
  PublicationState,
  PublishPostCommand,
  ReviewPostCommand,
  RecordAccountOutcomeCommand,
  RecordAccountOutcomeReply,
  RecordFirstCommentCommand,
  RecordFirstCommentReply,
  StartAccountPublishCommand,
  StartAccountPublishReply,
} from './commands';
import type {
  CreateWebhookCommand,
  RedeliverWebhookCommand,
  ReplayWebhookCommand,
  ReplayWebhookReply,
  TestWebhookReply,
  UpdateWebhookCommand,
  WebhookEndpointCommand,
  WebhookEndpointView,
  WebhookEndpointWithSecret,
} from './webhooks';

/** The answer of a command that has nothing to say beyond "done". */
export type EmptyReply = Record<string, never>;

/**
 * Every command between the services: its name (the NATS subject under
 * social.cmd.v1), the payload the caller sends and the value the handler
 * answers. The client (`CommandClient.request`) and the servers
 * (`serveCommands`) are both typed by this one map, so a caller and its
 * handler cannot disagree without the compiler saying so.
 *
 * Both sides travel as JSON: the types hold only what survives it (times as
 * ISO 8601 strings, positions as "commit:prepare", no bigint, no Date).
 */
export interface CommandMap {
  'posts.create': { payload: CreatePostCommand; reply: PostCommandReply };
  'posts.publish': { payload: PublishPostCommand; reply: PostCommandReply };
  'posts.retry': { payload: PublishPostCommand; reply: PostCommandReply };
  'posts.edit': { payload: EditPostCommand; reply: PostCommandReply };
  'posts.delete': { payload: DeletePostCommand; reply: PostCommandReply };
  'posts.approve': { payload: ReviewPostCommand; reply: PostCommandReply };
  'posts.reject': { payload: ReviewPostCommand; reply: PostCommandReply };
  'posts.create-bulk': { payload: BulkCreatePostsCommand; reply: BulkCreatePostsReply };
  'posts.fire-scheduled': { payload: FireScheduledPostCommand; reply: FireScheduledPostReply };
  'posts.abandon-publication': { payload: AbandonPublicationCommand; reply: AbandonPublicationReply };
  'posts.start-account-publish': { payload: StartAccountPublishCommand; reply: StartAccountPublishReply };
  'posts.record-account-outcome': { payload: RecordAccountOutcomeCommand; reply: RecordAccountOutcomeReply };
  'posts.record-first-comment': { payload: RecordFirstCommentCommand; reply: RecordFirstCommentReply };
  'posts.get-publication': { payload: GetPublicationCommand; reply: PublicationState };
  'queues.set-schedule': { payload: SetPostingScheduleCommand; reply: SetPostingScheduleReply };
  'comments.ingest-webhook': { payload: IngestWebhookCommentsCommand; reply: IngestCommentsReply };
  'comments.reply': { payload: ReplyToCommentCommand; reply: ReplyToCommentReply };
  'comments.hide': { payload: ModerateCommentCommand; reply: ModerateCommentReply };
  'comments.unhide': { payload: ModerateCommentCommand; reply: ModerateCommentReply };
  'comments.delete-reply': { payload: DeleteCommentReplyCommand; reply: DeleteCommentReplyReply };
  'accounts.connect-start': { payload: StartConnectCommand; reply: StartConnectReply };
  'accounts.connect-callback': { payload: ConnectCallbackCommand; reply: ConnectCallbackReply };
  'accounts.connect-complete': { payload: CompleteConnectCommand; reply: ConnectedAccountsReply };
  'accounts.connect-credentials': { payload: ConnectWithCredentialsCommand; reply: ConnectedAccountsReply };
  'accounts.disconnect': { payload: DisconnectAccountCommand; reply: AccountView };
  'accounts.require-reauth': { payload: RequireReauthCommand; reply: EmptyReply };
  'accounts.connect-link-create': { payload: CreateConnectLinkCommand; reply: ConnectLinkCreated };
  'accounts.connect-link-revoke': { payload: RevokeConnectLinkCommand; reply: EmptyReply };
  'accounts.connect-link-open': { payload: ConnectLinkCommand; reply: ConnectLinkPage };
  'accounts.connect-link-start': { payload: StartConnectLinkSignInCommand; reply: StartConnectLinkSignInReply };
  'accounts.connect-link-complete': { payload: CompleteConnectLinkSignInCommand; reply: ConnectedAccountsReply };
  'accounts.connect-link-app-password': { payload: ConnectLinkAppPasswordCommand; reply: ConnectedAccountsReply };
  'accounts.connect-link-finish': { payload: ConnectLinkCommand; reply: FinishConnectLinkReply };
  'accounts.list-boards': { payload: ListBoardsCommand; reply: BoardsReply };
  'webhooks.create': { payload: CreateWebhookCommand; reply: WebhookEndpointWithSecret };
  'webhooks.update': { payload: UpdateWebhookCommand; reply: WebhookEndpointView };
  'webhooks.delete': { payload: WebhookEndpointCommand; reply: EmptyReply };
  'webhooks.rotate-secret': { payload: WebhookEndpointCommand; reply: WebhookEndpointWithSecret };
  'webhooks.test': { payload: WebhookEndpointCommand; reply: TestWebhookReply };
  'webhooks.redeliver': { payload: RedeliverWebhookCommand; reply: EmptyReply };
  'webhooks.replay': { payload: ReplayWebhookCommand; reply: ReplayWebhookReply };
}

export type CommandName = keyof CommandMap;

/** What the caller of command `N` sends. */
export type CommandPayload<N extends CommandName> = CommandMap[N]['payload'];

/** What the handler of command `N` answers (the value of an ok reply). */
export type CommandResult<N extends CommandName> = CommandMap[N]['reply'];

/** What a command's handler sends back over NATS request/reply: its result, or its refusal. */
export type CommandReply<T> = { ok: true; value: T } | { ok: false; error: ErrorBody['error'] };
