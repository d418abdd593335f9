import { classifyComment, CommentTag } from '.';

/**
 * Each tag on the examples the README documents, and not on their near-misses: comments that share
 * a word with the examples but mean something else. One table per tag, so a rule change that moves
 * a tag shows which documented behaviour it broke.
 */
const TAG_EXAMPLES: Record<CommentTag, { fires: string[]; nearMisses: string[] }> = {
  question: {
    fires: ['How do I export my contacts?', 'is there a family plan', 'Is this the same as https://example.com/docs/export ?', 'When will you fix the checkout bug???', 'anyone know if it works offline'],
    nearMisses: ['How Nike is using AI to design shoes', 'When the CEO gives a speech, everyone listens', 'Who cares?', 'how cool is that?', "it's a beauty, isn't it?", 'Gunners want Real Madrid midfielder? Tuesday gossip https://t.co/x1'],
  },
  complaint: {
    fires: ["The app doesn't work since the update", 'Still waiting for my refund', 'Charged twice for one order', 'great, another outage'],
    nearMisses: ['Waiting for the band to start 🎶', 'The new album is unbelievable. Can\'t wait', 'no complaints, works great'],
  },
  praise: {
    fires: ['Love it, thank you!', 'this beat is fire 🔥', "you're on fire today", 'not bad at all'],
    nearMisses: ['Not a great way to start the day', 'I hope this brand dies in a fire', 'not the best idea', 'Thanks for nothing 🙃'],
  },
  spam: {
    fires: ['Check out my channel, I post similar stuff!', 'Subscribe to me and I will subscribe back', 'please visit my channel', 'Hey guys http://my-mixtape.example.com', 'https://soundcloud.com/someone/track', 'Check out this video on YouTube:', 'Help me get 50 subs please', 'CHECK OUT THE NEW REMIX !!! CLICK CLICK !!', 'Vote for me please http://vote.example.com/42', 'DONATE BITCOINS TO ME'],
    nearMisses: ['Setup guide is here: https://docs.example.org/setup', 'Source: https://www.who.int/news/item/2024', 'How do I subscribe to the newsletter?', 'I checked my account and nothing changed', 'I unsubscribed after the last update', 'please check out my order, it never arrived', "Subscribe button doesn't work", 'I tried to check out but the page froze', 'Check out keeps failing on my phone', 'Gig at the Leadmill in November. Me like.', "I can't sign up, see https://imgur.com/a/x", 'The download link https://acme.example.com/dl is broken'],
  },
  purchase_intent: {
    fires: ['How much is shipping to Spain?', 'Take my money, when is it back in stock?', 'Do you ship to Norway?'],
    nearMisses: ['Does the warranty cover the battery?', 'I bought one last year'],
  },
  urgent: {
    fires: ['My charger caught fire last night', "I'm calling my lawyer", 'Is the app down for everyone?', "I can't log in since this morning", 'The kid swallowed a magnet from the set', 'You leaked my data, this is a data breach'],
    nearMisses: ['this beat is fire 🔥', "you're on fire today", "I'm dying 😂 this is hilarious", 'sue me but I like the old logo', 'my heart melted', 'the food court was packed', 'I hope this brand dies in a fire'],
  },
};

describe.each(Object.entries(TAG_EXAMPLES))('the %s tag', (tag, { fires, nearMisses }) => {
  it.each(fires)('fires on %p', (text) => {
    expect(classifyComment(text).tags).toContain(tag);
  });

  it.each(nearMisses)('does not fire on the near-miss %p', (text) => {
    expect(classifyComment(text).tags).not.toContain(tag);
  });
});

describe('sentiment on the error classes of issue 13', () => {
  it.each([
    ['Not a great way to start the day', 'negative'],
    ['NOT GOOD AT ALL', 'negative'],
    ['I hope this brand dies in a fire', 'negative'],
    ["The new album is unbelievable. Can't wait", 'positive'],
    ["can't wait for the launch!", 'positive'],
    ['Chillin at the station. Waiting for the brass band to start.', 'neutral'],
  ])('reads %p as %s', (text, sentiment) => {
    expect(classifyComment(text).sentiment).toBe(sentiment);
  });
});
