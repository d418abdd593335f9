import { countMatchingPatterns, hasCue, words } from './cue-matching';
import { CommentText, LINK_MARK } from './text-normalization';

/** Things a spammer asks readers to look at: their own channel, music, page... */
const PROMOTED_THING =
  '(?:new |first |latest |newest |own |youtube |yt |music |gaming |official )?(?:ch+ann?el|chanel|page|profile|bio|video|vids?|videos|vidios|music|songs?|remix|rap|covers?|stream|playlist|website|site|blog|art|clip|stuff)';

/** What a customer asks the account to look at ("please check out my order"): no promotion. */
const CUSTOMER_THING = '(?:order|orders|account|cart|basket|payment|package|parcel|delivery|refund|subscription|ticket|email|invoice|bill|issue|problem|complaint|case|review)';

/**
 * Any one of these is enough: nobody writes them except to promote or scam. The YouTube ones
 * ("check out my channel", "subscribe to me", "please visit my channel", "check out this video on
 * YouTube:") are what the UCI YouTube Spam Collection shows spammers write (eval/README.md).
 */
const STRONG_SPAM_CUES: readonly RegExp[] = [
  // self-promotion
  words(`(?:check|checking|chacking|look at|visit|watch|listen(?: to)?|hear) (?:out )?(?:my|our) ${PROMOTED_THING}`, `check out (?:and share )?(?:my|our)(?! ${CUSTOMER_THING})`, 'check out (?:this|my) (?:video|song) called', 'check (?:me|us) out', 'come check (?:it |us |me |this )?out', '(?:started|made|created|opened) (?:a |my )?(?:new )?(?:youtube |gaming |music )?channel', 'check out (?:this|our|my) (?:video|playlist|channel) on youtube', 'take a look at this video on youtube', '(?:my|our) (?:youtube |gaming |music )?channel', 'link in (?:my )?bio', 'plz check', 'check (?:out )?@[\\w.]+'),
  // subscribe / follow / like bait ("how do I subscribe to the newsletter" is no bait)
  words('(?:please|pls|plz|and|guys) (?:subscribe|suscribe)', '(?:subscribe|suscribe|sub) (?:to )?(?:me|my|us|our|this channel|back)', '(?:subscribe|suscribe) (?:and|for|like|now|right now)', "(?:i'?ll|i will|and i|i) sub(?:scribe)? (?:back|to you)", '(?:sub|follow|like|l) ?(?:4|for) ?(?:sub|follow|like|l)', '(?:like|view|comment)s? (?:and |& |n )?subscribe', 'if i (?:get|reach|hit) \\d+ (?:subs|subscribers)', '\\d+ subs', 'follow (?:me|us|this channel)', 'follow for follow', 'follow back', 'f4f', 'l4l', 'like and follow', 'free followers', 'followers for', 'followers and likes', '\\d+k followers', 'like this comment', 'thumbs? (?:this|my) (?:comment )?up', 'thumbs? up (?:this|my) comment', 'please like', 'like please'),
  /(?:^|[.!?]\s+)(?:(?:subscribe|suscribe)(?=\s*(?:$|[!.,&:;)]|to |and |me\b|for |now\b|pls|plz|please))|share (?:this|my) (?:video|comment|channel))/u,
  // "CHECK OUT THE NEW REMIX", "Go check out eminem survival": an order to look, opening a sentence.
  // Shoppers write "check out" too ("check out keeps failing"), so what follows must not be the till.
  new RegExp(
    `(?:^|[.!?:]\\s*|(?<![\\p{L}\\p{N}])(?:go|please|pls|plz|guys|and|you should|u should) )check out (?!(?:(?:my|our|your|the|this) )?${CUSTOMER_THING}(?![\\p{L}\\p{N}]))(?!(?:is|keeps|fails?|failed|page|button|process|does|doesn't|won't|isn't|not|error)(?![\\p{L}\\p{N}]))`,
    'u',
  ),
  words('help me (?:reach|get|hit) \\d+', 'view (?:this|my) channel', 'click (?:on )?the subscribe', 'share to vote', '(?:look and )?shares? (?:my|our) (?:songs?|music|videos?|channel)'),
  // contact me, money, prizes
  words('dm me (?:for|to)', 'dm @[\\w.]+', 'message me', 'text me', 'give (?:me )?your email', 'whatsapp', 'telegram', 'ask me how', 'contact her', 'contact him'),
  words('earn \\$?\\d+', 'earn (?:real )?money', 'make money', 'need money\\?', 'passive income', 'forex', 'trading bot', 'crypto', 'bitcoins?', 'eth', 'investment opportunity', 'returns guaranteed', '\\d+% returns', 'free (?:gift|money|iphone|followers)', 'gift card codes?'),
  words('giveaway', 'claim your prize', 'you have been selected', 'selected as our winner', 'ambassador program', 'promote it on', 'hot singles', 'sugar daddy', 'interested in your account', 'gofundme', 'indiegogo', 'petition'),
  // a phone number in a comment is a contact offer
  /(?<![\p{L}\p{N}])\+?\d[\d ]{8,}\d(?![\p{L}\p{N}])/u,
];

/** Each family is normal alone; two families together look like promotion. */
const WEAK_SPAM_CUES: readonly RegExp[] = [
  words(LINK_MARK),
  words('free', 'cheap', 'win', 'prize', 'click here', 'deals?', '\\d+% off', 'promo', 'collab', 'dm me', 'followers'),
  /👉|👈|💰|📈|💌|📩/u,
];

/** Next to a link, these make it a link drop: a greeting, a plea, the spammer's own things. */
const LINK_COMPANIONS: readonly RegExp[] = [
  words('please', 'pls', 'plz', 'help me', 'support', 'enjoy', 'go here', 'more', 'add me+', 'like', 'follow', 'click', 'check (?:it|this) out', 'great game', 'reminds me of'),
  // what a link drop asks for: a vote; "delete the space" dodges link filters. Not "download",
  // "sign up" or "money": customers link to what fails them ("can't sign up: https://…").
  words('vote', 'delete (?:the )?spaces?'),
  words(`my ${PROMOTED_THING}`, 'our (?:band|company|group)'),
  words('hey', 'hi', 'hello', 'yo', 'guys', 'everyone'),
];

/**
 * Self-promotion spread over a comment ("I'm a 16 year old rapper with a dream… please check out my
 * music"): a call to look, listen or subscribe, and the writer's own content or persona. Either
 * one alone is a fan talking; both together, or either next to a link, is promotion.
 */
const CALL_TO_ACTION = words(
  'check (?:it |this |these |them |that )?out', 'check (?:it|them) out', 'listen to', 'go (?:to|watch|listen)', 'search', 'type in', 'visit', 'subscribe', 'subscription', 'thumbs? (?:it |this |me )?up', 'give (?:me|it|us) (?:a|one) (?:chance|like|listen|view)', 'leave (?:a )?(?:like|comment|feedback)', 'let me know what you think', 'tell me what you think',
);
const OWN_CONTENT = words(
  '(?:my|our) (?:new |first |latest |own |original |youtube |music )?(?:ch+ann?el|chanel|music|songs?|videos?|vids?|covers?|band|remix|mixtape|tracks?|page|raps?|beats?|dream|content)',
  "i'?m a (?:\\d+ ?(?:yr|year)s? old )?(?:young )?(?:rapper|singer|producer|musician|youtuber|songwriter|artist|dj|gamer)", 'new youtuber', 'small channel', 'rapper with a dream',
);

/** "amazinggggg contenttt": bots stretch words; read on the raw text (folding shortens the runs). */
const STRETCHED_WORD = /\p{L}{2,}(\p{L})\1{3,}/u;

/** Few words besides a link: "https://soundcloud.com/…", "gofundme.com/x plz". */
const MAX_WORDS_BESIDE_A_BARE_LINK = 3;
const WORD = /[\p{L}\p{N}']+/gu;

/** "Source: https://…" cites; it does not promote. */
const CITATION_WORDS: ReadonlySet<string> = new Set(['source', 'sources', 'via', 'docs', 'article', 'study', 'report', 'news']);

function isBareLink(folded: string): boolean {
  if (!folded.includes(LINK_MARK)) return false;
  const otherWords = (folded.match(WORD) ?? []).filter((word) => word !== LINK_MARK);
  return otherWords.length <= MAX_WORDS_BESIDE_A_BARE_LINK && !otherWords.some((word) => CITATION_WORDS.has(word));
}

export function isSpam(comment: CommentText): boolean {
  const { folded } = comment;
  if (hasCue(STRONG_SPAM_CUES, folded) || isBareLink(folded)) return true;
  const hasLink = folded.includes(LINK_MARK);
  if (hasLink && hasCue(LINK_COMPANIONS, folded)) return true;
  const callsToAction = hasCue([CALL_TO_ACTION], folded);
  const ownContent = hasCue([OWN_CONTENT], folded);
  if (Number(callsToAction) + Number(ownContent) + Number(hasLink) >= 2) return true;
  const weakCues = countMatchingPatterns(WEAK_SPAM_CUES, comment.folded) + Number(STRETCHED_WORD.test(comment.raw));
  return weakCues >= 2;
}
