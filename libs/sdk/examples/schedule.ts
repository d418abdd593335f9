// Schedule a post for tomorrow at 09:00 UTC, then walk every scheduled post, page after page.
// Run: SOCIAL_API_URL=… SOCIAL_API_KEY=… node dist/libs/sdk/examples/schedule.js
import { SocialClient } from '../src';

async function main(): Promise<void> {
  const social = new SocialClient({ baseUrl: process.env.SOCIAL_API_URL!, apiKey: process.env.SOCIAL_API_KEY! });
  const tomorrow = new Date();
  tomorrow.setUTCDate(tomorrow.getUTCDate() + 1);
  tomorrow.setUTCHours(9, 0, 0, 0);
  // Your own Idempotency-Key (e.g. your job's id) makes a re-run of this script answer the first post instead of a second one.
  // The workspace's first connected Mastodon account (by id: `platforms: ['mastodon']` is refused once the workspace has two).
  const { accounts } = await social.accounts.list();
  const mastodon = accounts.find((account) => account.platform === 'mastodon' && account.status === 'connected');
  if (!mastodon) return console.log('connect a Mastodon account first (POST /api/v1/accounts/connect)');
  const { post } = await social.posts.create({ content: 'See you at nine', accounts: [mastodon.id], scheduledAt: tomorrow.toISOString() }, { idempotencyKey: `newsletter-${tomorrow.toISOString().slice(0, 10)}` });
  console.log(`scheduled ${post.id} for ${tomorrow.toISOString()}`);
  for await (const scheduled of social.posts.iterate({ status: 'scheduled', limit: 50 })) console.log(`${scheduled.scheduledAt}  ${scheduled.id}  ${scheduled.content}`);
}

if (require.main === module) void main();
