import { isAsciiOnly } from './text-normalization';

/**
 * The JS port of VADER has no emoji lexicon (Python VADER 3.3 maps emoji to their descriptions).
 * We do the same with an English word VADER already scores, for the emoji common in comments.
 * Ambiguous ones (😭 is often happy-overwhelmed, 🤔 👀 😐) are left unscored on purpose;
 * 🙃 is read as a sarcasm cue instead (see sarcasm-cues.ts).
 */
const EMOJI_WORDS: ReadonlyArray<[string, string]> = [
  ['😍🥰😘❤♥💕💖💗💓💞💙💚💛💜🧡🤍🖤😻', 'love'],
  ['😀😃😄😁😊🙂☺😌🤗', 'smile'],
  ['😂🤣😆😹💀', 'haha'],
  ['🔥🤩✨🌟⭐', 'awesome'],
  ['👏🙌🎉🥳🎊', 'yay'],
  ['💯🐐🏆👌', 'perfect'],
  ['😮😲', 'wow'],
  ['🥹', 'touching'],
  ['🙏', 'thanks'],
  ['😢😞😔☹🙁😟😥😿💔', 'sad'],
  ['😡🤬😠👿', 'angry'],
  ['👎', 'bad'],
  ['🤮🤢', 'disgusting'],
  ['💩', 'crap'],
  ['🙄😒😤', 'annoyed'],
  ['🤡', 'ridiculous'],
  ['😱😨', 'scared'],
];

const WORD_BY_EMOJI = new Map<string, string>(
  EMOJI_WORDS.flatMap(([emojis, word]) => Array.from(emojis, (emoji): [string, string] => [emoji, word])),
);

const VARIATION_SELECTOR = /\uFE0F/g;

/** Replaces known emoji by a space-separated word VADER scores; other emoji stay as they are. */
export function emojiToWords(text: string): string {
  if (isAsciiOnly(text)) return text; // no emoji: skip the per-character walk
  return Array.from(text.replace(VARIATION_SELECTOR, ''), (char) => {
    const word = WORD_BY_EMOJI.get(char);
    return word === undefined ? char : ` ${word} `;
  }).join('');
}
