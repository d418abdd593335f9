/** The refusal for a command on a comment this workspace has not stored (shared with the gateway's thread read, so it lives in contracts). */
export { unknownComment } from '@app/contracts';
