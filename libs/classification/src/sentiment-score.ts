import { prepareForVader } from './vader-input';
import { vaderCompound } from './vader-scorer';

/** VADER compound score (-1..1) of the comment, read through prepareForVader. */
export function lexicalSentimentScore(text: string): number {
  return vaderCompound(prepareForVader(text));
}
