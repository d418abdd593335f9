/** How the commenter sounds (spec: not whether the comment is a problem for the owner). */
export type Sentiment = 'positive' | 'negative' | 'neutral';

/**
 * Intent labels. Kept deliberately small; each one routes a comment somewhere different:
 * - question: asks the account something it could answer (angry "when will you fix this?" included;
 *   rhetorical questions and headlines are not).
 * - complaint: reports a problem or dissatisfaction with the product, service, brand or content.
 * - praise: approval, thanks or congratulations aimed at the product, service, brand or content.
 * - spam: unsolicited promotion, scams, follow-for-follow, link drops, bots.
 * - purchase_intent: wants to buy, asks price, stock, sizes, shipping to a place, discounts, pre-orders.
 * - urgent: safety (fire, injury, poisoning), legal (lawyer, lawsuit, fraud, data breach) or outage words.
 */
export const COMMENT_TAGS = ['question', 'complaint', 'praise', 'spam', 'purchase_intent', 'urgent'] as const;
export type CommentTag = (typeof COMMENT_TAGS)[number];

export interface CommentClassification {
  sentiment: Sentiment;
  /** In COMMENT_TAGS order; may be empty. */
  tags: CommentTag[];
}
