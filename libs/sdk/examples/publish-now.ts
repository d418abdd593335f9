// Publish now on two accounts and read one result per account.
// Run: SOCIAL_API_URL=https://api.example.com SOCIAL_API_KEY=sp_… node dist/libs/sdk/examples/publish-now.js
// (in your own project: import { SocialClient, isSocialApiError } from '@social-publishing/sdk')
import { isComplete, isSocialApiError, SocialClient } from '../src';

async function main(): Promise<void> {
  const social = new SocialClient({ baseUrl: process.env.SOCIAL_API_URL!, apiKey: process.env.SOCIAL_API_KEY! });
  const { accounts } = await social.accounts.list();
  try {
    // Sent with an Idempotency-Key (a new UUID for this call), so a 429/503 is retried without publishing twice.
    // Two accounts that can publish this text now: connected (one waiting for a new sign-in, needs_reauth, refuses the
    // post) and on a platform that takes a post without media (Instagram, TikTok, YouTube and Pinterest need one).
    const needMedia = ['instagram', 'tiktok', 'youtube', 'pinterest'];
    const ready = accounts.filter((account) => account.status === 'connected' && !needMedia.includes(account.platform)).slice(0, 2);
    const answer = await social.posts.create({ content: 'Hello from the SDK', accounts: ready.map((account) => account.id), publishNow: true });
    // Recorded but not readable yet (a 202 with only the id): its outcome is GET /api/v1/posts/{id} in a moment.
    if (!isComplete(answer)) return console.log(`post ${answer.post.id} recorded: ${answer.note}`);
    const { post, results } = answer;
    console.log(`post ${post.id}: ${post.status}`);
    for (const result of results) {
      console.log(result.success ? `  ${result.platform} ${result.accountLabel}: ${result.url}` : `  ${result.platform} ${result.accountLabel}: ${result.error?.code} (${result.error?.message})`);
    }
  } catch (error) {
    // A refusal of the whole request: the API's code, e.g. insufficient_scope (details.missing), content_too_long.
    if (isSocialApiError(error)) console.error(`refused: ${error.code} (${error.status}): ${error.message}`, error.details);
    else throw error;
  }
}

if (require.main === module) void main();
