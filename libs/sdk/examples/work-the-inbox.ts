// Work the comment inbox: thank every positive comment not yet answered, hide the negative ones where the platform allows it.
// Run: SOCIAL_API_URL=… SOCIAL_API_KEY=… (scopes read, engage) node dist/libs/sdk/examples/work-the-inbox.js
import { isSocialApiError, SocialClient } from '../src';

async function main(): Promise<void> {
  const social = new SocialClient({ baseUrl: process.env.SOCIAL_API_URL!, apiKey: process.env.SOCIAL_API_KEY! });
  for await (const comment of social.comments.iterate({ sentiment: 'positive', unreplied: '1' })) {
    if (!comment.canReply) continue;
    try {
      // A reply is not idempotent: the SDK never sends it twice on its own; a 429 comes back as rate_limited.
      await social.comments.reply({ platform: comment.platform, commentId: comment.platformCommentId, message: `Thank you, ${comment.author}!` });
    } catch (error) {
      if (isSocialApiError(error, 'rate_limited')) {
        console.log(`reply limit reached: try again in ${error.retryAfterSeconds} s`);
        return;
      }
      if (isSocialApiError(error)) console.log(`${comment.platformCommentId}: ${error.code}`);
      else throw error;
    }
  }
  for await (const comment of social.comments.iterate({ sentiment: 'negative' })) {
    if (comment.canHide && !comment.hidden) await social.comments.hide({ platform: comment.platform, commentId: comment.platformCommentId });
  }
}

if (require.main === module) void main();
