import { countMatchingPatterns, hasCue, words } from './cue-matching';
import { CommentText, LINK_MARK } from './text-normalization';

/** Any one of these is enough: nobody writes them except to promote or scam. */
const STRONG_SPAM_CUES: readonly RegExp[] = [
  words('check (?:out )?my (?:profile|page|channel|bio|account)', 'link in (?:my )?bio', 'visit my (?:profile|page)', 'check my bio', 'plz check'),
  words('follow for follow', 'follow me back', 'follow back', 'f4f', 'l4l', 'sub4sub', 'like and follow', 'free followers', 'followers for', 'followers and likes', '\\d+k followers'),
  words('dm me (?:for|to)', 'dm @[\\w.]+', 'message me', 'text me', 'whatsapp', 'telegram', 'ask me how', 'contact her', 'contact him'),
  words('earn \\$?\\d+', 'make money', 'passive income', 'forex', 'trading bot', 'crypto', 'bitcoin', 'eth', 'investment opportunity', 'returns guaranteed', '\\d+% returns'),
  words('giveaway', 'claim your prize', 'you have been selected', 'selected as our winner', 'ambassador program', 'promote it on', 'hot singles', 'sugar daddy', 'interested in your account'),
];

/** Each family is normal alone; two families together look like promotion. */
const WEAK_SPAM_CUES: readonly RegExp[] = [
  words(LINK_MARK),
  words('free', 'cheap', 'win', 'prize', 'click here', 'deals?', '\\d+% off', 'promo', 'collab', 'dm me', 'followers'),
  /👉|👈|💰|📈|💌|📩/u,
];

/** "amazinggggg contenttt": bots stretch words; read on the raw text (folding shortens the runs). */
const STRETCHED_WORD = /\p{L}{2,}(\p{L})\1{3,}/u;

export function isSpam(comment: CommentText): boolean {
  if (hasCue(STRONG_SPAM_CUES, comment.folded)) return true;
  const weakCues = countMatchingPatterns(WEAK_SPAM_CUES, comment.folded) + Number(STRETCHED_WORD.test(comment.raw));
  return weakCues >= 2;
}
