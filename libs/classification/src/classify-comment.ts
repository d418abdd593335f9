import { CommentClassification, CommentTag, COMMENT_TAGS, Sentiment } from './comment-classification';
import { BLUNT_QUESTION_CUES, COMPLAINT_CUES } from './complaint-cues';
import { countCues, hasCue } from './cue-matching';
import { NEGATED_PRAISE_CUES, PRAISE_CUES, withoutNegatedWords } from './praise-cues';
import { PURCHASE_INTENT_CUES } from './purchase-intent-cues';
import { isQuestion } from './question-cues';
import { soundsSarcastic } from './sarcasm-cues';
import { lexicalSentimentScore } from './sentiment-score';
import { isSpam } from './spam-cues';
import { CommentText, toCommentText } from './text-normalization';
import { isUrgent } from './urgent-cues';

/**
 * The sentiment score is VADER's compound score plus these cue weights, cut at the thresholds.
 * All six numbers were set on dev splits only (see README).
 */
const SCORE = {
  /** Per complaint cue: VADER misses domain problems ("still waiting", "refund", "crashes"). */
  complaintCue: -0.4,
  /** Praise cues VADER misses (slang, emoji it cannot read, other languages). */
  praise: 0.3,
  /** "Take my money", "ordering one for my sister": eager, with few sentiment words. */
  purchaseStatement: 0.4,
  /**
   * 0.35 and -0.2 turned hundreds of mildly positive tweets neutral (issue 13); these two were re-set
   * on the dev splits of the VADER tweets and the hand-labelled comments (eval/README.md).
   */
  positiveFrom: 0.3,
  negativeFrom: -0.1,
  /** Questions and spam lean on polite or promotional words ("free", "please") that sound neutral. */
  positiveFromQuestionOrSpam: 0.55,
} as const;

interface CommentSignals {
  complaintCues: number;
  praise: boolean;
  sarcastic: boolean;
  spam: boolean;
  question: boolean;
  purchaseIntent: boolean;
  urgent: boolean;
}

function hasPraise(folded: string): boolean {
  return hasCue(NEGATED_PRAISE_CUES, folded) || hasCue(PRAISE_CUES, withoutNegatedWords(folded));
}

function readSignals(comment: CommentText): CommentSignals {
  const { folded } = comment;
  const spam = isSpam(comment);
  const question = !spam && isQuestion(folded);
  const urgent = !spam && isUrgent(folded);
  // A safety, legal or outage report is a problem with the product even when no complaint word says so.
  const complaintCues =
    countCues(COMPLAINT_CUES, folded) + (question ? countCues(BLUNT_QUESTION_CUES, folded) : 0) + Number(urgent);
  const sarcastic = soundsSarcastic(folded, complaintCues > 0);
  return {
    complaintCues,
    praise: !spam && !sarcastic && hasPraise(folded),
    sarcastic,
    spam,
    question,
    purchaseIntent: !spam && hasCue(PURCHASE_INTENT_CUES, folded),
    urgent,
  };
}

function sentimentOf(text: string, signals: CommentSignals): Sentiment {
  if (signals.sarcastic) return 'negative';
  const score =
    lexicalSentimentScore(text) +
    SCORE.complaintCue * signals.complaintCues +
    (signals.praise ? SCORE.praise : 0) +
    (signals.purchaseIntent && !signals.question ? SCORE.purchaseStatement : 0);
  const positiveFrom = signals.question || signals.spam ? SCORE.positiveFromQuestionOrSpam : SCORE.positiveFrom;
  if (score >= positiveFrom) return 'positive';
  if (score <= SCORE.negativeFrom) return 'negative';
  return 'neutral';
}

function tagsOf(signals: CommentSignals): CommentTag[] {
  const present: Record<CommentTag, boolean> = {
    question: signals.question,
    complaint: !signals.spam && (signals.complaintCues > 0 || signals.sarcastic),
    praise: signals.praise,
    spam: signals.spam,
    purchase_intent: signals.purchaseIntent,
    urgent: signals.urgent,
  };
  return COMMENT_TAGS.filter((tag) => present[tag]);
}

/**
 * Sentiment (how the commenter sounds) and intent tags of one comment. Pure and synchronous:
 * it runs on every ingested comment, so it only uses in-process lexicons and regular expressions.
 */
export function classifyComment(text: string): CommentClassification {
  const signals = readSignals(toCommentText(text));
  return { sentiment: sentimentOf(text, signals), tags: tagsOf(signals) };
}
