import { SentimentIntensityAnalyzer } from 'vader-sentiment';
import { prepareForVader } from './vader-input';

/** VADER compound score (-1..1) of the comment, read through prepareForVader. */
export function lexicalSentimentScore(text: string): number {
  return SentimentIntensityAnalyzer.polarity_scores(prepareForVader(text)).compound;
}
