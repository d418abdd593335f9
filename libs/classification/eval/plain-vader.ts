import { SentimentIntensityAnalyzer } from 'vader-sentiment';
import { Sentiment } from '../src';

/** The baseline: vader-sentiment as its README says to use it (compound ≥ 0.05 positive, ≤ -0.05 negative). */
export function plainVaderSentiment(text: string): Sentiment {
  const { compound } = SentimentIntensityAnalyzer.polarity_scores(text);
  if (compound >= 0.05) return 'positive';
  if (compound <= -0.05) return 'negative';
  return 'neutral';
}
