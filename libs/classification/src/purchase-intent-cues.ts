import { words } from './cue-matching';

/** Wanting to buy: price, stock, sizes, shipping to a place, discounts, pre-orders (folded text). */
export const PURCHASE_INTENT_CUES: readonly RegExp[] = [
  words('how much', 'what(?:\'s| is) the price', 'cost', 'in stock', 'pre-?order', 'where (?:can|do) i (?:buy|get|order|sign up)', 'buy (?:this|one|it|three|two)', 'bulk pricing', 'bundle', 'student discount', 'discount code', 'is the sale', 'take my money', 'add(?:ing|ed)? (?:it )?to (?:my )?cart', 'ordering (?:one|two|this|it)', 'order \\d+', 'need this', 'want this', 'link\\?', 'my wallet'),
  words('ship(?:ping)? to', 'deliver(?:y)? to', 'available in', 'come in (?:black|white|blue|red|size)', 'sign up for the beta'),
  // Spanish, French, German, Portuguese, Italian
  words('cuanto cuesta', 'precio', 'envios? a', 'quel est le prix', 'combien', 'prix', 'disponible en', 'gibt es das auch', 'was kostet', 'preis', 'quanto custa', 'frete', 'quanto costa'),
];
