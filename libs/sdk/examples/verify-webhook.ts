// Receive webhooks: verify each delivery's Standard Webhooks signature on the raw body, deduplicate on webhook-id.
// Run: SOCIAL_WEBHOOK_SECRET=whsec_… PORT=8080 node dist/libs/sdk/examples/verify-webhook.js
import { createServer } from 'node:http';
import { verifyWebhook, WebhookVerificationError } from '../src';

const seen = new Set<string>();

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    try {
      // The raw body, as received: parsing and re-serialising it would break the signature.
      const event = verifyWebhook(process.env.SOCIAL_WEBHOOK_SECRET!, Buffer.concat(chunks), request.headers);
      const id = String(request.headers['webhook-id']);
      if (!seen.has(id)) {
        seen.add(id);
        if (event.type === 'post.published') console.log(`published: ${event.data.postId}`);
        else console.log(event.type);
      }
      response.writeHead(204).end();
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      response.writeHead(400).end();
    }
  });
});

if (require.main === module) server.listen(Number(process.env.PORT ?? 8080));
