import { classifyComment, COMMENT_TAGS } from '.';

const sentimentOf = (text: string) => classifyComment(text).sentiment;
const tagsOf = (text: string) => classifyComment(text).tags;

describe('classifyComment', () => {
  describe('negation', () => {
    it('turns a positive word negative', () => {
      expect(sentimentOf('this is not good')).toBe('negative');
      expect(classifyComment("I don't like the new menu")).toEqual({ sentiment: 'negative', tags: ['complaint'] });
    });

    it('reads a negated negative as positive', () => {
      expect(sentimentOf('not bad at all, honestly')).toBe('positive');
      expect(tagsOf("can't complain, the new plan works great")).toContain('praise');
    });

    it('does not tag a negated praise word as praise', () => {
      expect(tagsOf('not great, the sound is muffled')).not.toContain('praise');
    });

    it('applies a German negator to what comes before it when it closes the clause', () => {
      expect(sentimentOf('Das funktioniert nicht, echt enttäuscht')).toBe('negative');
    });
  });

  describe('emoji', () => {
    it('scores emoji-only comments', () => {
      expect(classifyComment('😍😍')).toEqual({ sentiment: 'positive', tags: ['praise'] });
      expect(sentimentOf('😡😡')).toBe('negative');
      expect(sentimentOf('👀')).toBe('neutral');
    });

    it('lets emoji carry the sentiment of short text', () => {
      expect(sentimentOf('the new colours 🔥🔥')).toBe('positive');
      expect(sentimentOf('monday again 😢')).toBe('negative');
    });
  });

  describe('questions', () => {
    it('reads a plain question as a neutral question', () => {
      expect(classifyComment('How do I export my contacts?')).toEqual({ sentiment: 'neutral', tags: ['question'] });
      expect(tagsOf('is there a family plan')).toEqual(['question']);
    });

    it('reads a blunt question as a negative complaint, as a person would', () => {
      expect(classifyComment('Are you ever going to reply to my ticket?')).toEqual({
        sentiment: 'negative',
        tags: ['question', 'complaint'],
      });
      expect(sentimentOf('When will you fix the checkout bug???')).toBe('negative');
    });

    it('recognises questions in other languages', () => {
      expect(tagsOf('¿Cuánto cuesta el envío a Chile?')).toEqual(['question', 'purchase_intent']);
      expect(tagsOf('Wie lange dauert der Versand?')).toContain('question');
    });
  });

  describe('sarcasm', () => {
    it('reads a cheerful opener over a complaint as negative', () => {
      expect(classifyComment('great, another outage')).toEqual({ sentiment: 'negative', tags: ['complaint', 'urgent'] });
      expect(sentimentOf('Oh perfect, my order got cancelled again')).toBe('negative');
    });

    it('reads ironic phrases as negative and never as praise', () => {
      const result = classifyComment('Thanks for nothing 🙃');
      expect(result.sentiment).toBe('negative');
      expect(result.tags).not.toContain('praise');
    });

    it('leaves sincere cheer alone', () => {
      expect(classifyComment('Great, thank you so much!')).toEqual({ sentiment: 'positive', tags: ['praise'] });
    });
  });

  describe('spam', () => {
    it('flags a link with promotional words', () => {
      expect(tagsOf('Get free followers now at www.fastfans.biz')).toEqual(['spam']);
    });

    it('flags follow-for-follow, DM offers and crypto pitches', () => {
      expect(tagsOf('f4f? follow me back')).toEqual(['spam']);
      expect(tagsOf('DM me for a paid collab 💌')).toEqual(['spam']);
      expect(tagsOf('I turned $200 into $5,000 with this bitcoin signal group, ask me how')).toEqual(['spam']);
    });

    it('does not flag a plain link', () => {
      expect(tagsOf('Setup guide is here: https://docs.example.org/setup')).not.toContain('spam');
    });
  });

  describe('other languages', () => {
    it('reads common Spanish, French, German and Portuguese sentiment', () => {
      expect(classifyComment('Me encanta, muchas gracias!')).toEqual({ sentiment: 'positive', tags: ['praise'] });
      expect(classifyComment('No funciona desde ayer')).toEqual({ sentiment: 'negative', tags: ['complaint'] });
      expect(classifyComment("C'est nul, ça plante tout le temps")).toEqual({ sentiment: 'negative', tags: ['complaint'] });
      expect(classifyComment('Vielen Dank, wirklich hilfreich!')).toEqual({ sentiment: 'positive', tags: ['praise'] });
      expect(classifyComment('Péssimo, não recomendo')).toEqual({ sentiment: 'negative', tags: ['complaint'] });
    });
  });

  describe('short and shouted comments', () => {
    it('gives no tags and no sentiment to filler', () => {
      for (const text of ['ok', 'first!', '2nd', '.', '@sam_k']) expect(classifyComment(text)).toEqual({ sentiment: 'neutral', tags: [] });
    });

    it('reads all-caps complaints as negative', () => {
      expect(classifyComment('THIS IS THE WORST UPDATE')).toEqual({ sentiment: 'negative', tags: ['complaint'] });
    });

    it('reads stretched words', () => {
      expect(sentimentOf('soooo goooood')).toBe('positive');
    });
  });

  describe('purchase intent', () => {
    it('tags wanting to buy', () => {
      expect(tagsOf('Take my money, when is it back in stock?')).toEqual(['question', 'purchase_intent']);
      expect(tagsOf('Do you ship to Norway?')).toEqual(['question', 'purchase_intent']);
      expect(tagsOf('Does the warranty cover the battery?')).toEqual(['question']);
    });
  });

  describe('contract', () => {
    it('returns known tags in COMMENT_TAGS order, without duplicates', () => {
      const { tags } = classifyComment('Love it! Where can I buy the red one? Mine broke 😢');
      expect(tags).toEqual(COMMENT_TAGS.filter((tag) => tags.includes(tag)));
      expect(new Set(tags).size).toBe(tags.length);
    });

    // Its speed is measured by npm run bench:comments, not asserted here (timings in unit tests flake).
    it('is deterministic', () => {
      const texts = ['great, another outage 🙃', 'How much is shipping to Spain?', 'Check my profile 👉 bit.ly/x', 'Me encanta 😍'];
      const first = texts.map(classifyComment);
      for (let round = 0; round < 20; round += 1) expect(texts.map(classifyComment)).toEqual(first);
    });
  });
});
