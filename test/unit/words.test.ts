// The word rules of open-ended answers (domain/analysis/words.ts), called directly: lower-casing by
// the language, stop words of the survey's language, numbers and one-letter words, apostrophes, and
// Intl.Segmenter for a language written without spaces. The page and its counts are tested over
// HTTP in test/web/text-analysis.test.ts.
import { describe, expect, it } from 'vitest';
import { countWords, tokenizer } from '../../src/domain/analysis/words.js';

describe('tokenizer', () => {
  it('drops English stop words, contraction stems, numbers and one-letter words', () => {
    expect(tokenizer('en')("I wasn't told the price: 30 € for 2 items, a rip-off!")).toEqual([
      'told',
      'price',
      'items',
      'rip',
      'off',
    ]);
  });

  it('uses the survey language: German stop words, Turkish dotted capitals, English fallback', () => {
    expect(tokenizer('de')('Die Lieferung war schnell und der Preis ist niedrig')).toEqual([
      'lieferung',
      'schnell',
      'preis',
      'niedrig',
    ]);
    expect(tokenizer('tr')('İSTANBUL')).toEqual(['istanbul']);
    // Icelandic has no list in the package: English's applies
    expect(tokenizer('is')('the service')).toEqual(['service']);
  });

  it('splits a language written without spaces with Intl.Segmenter, keeping one-character words', () => {
    const words = tokenizer('zh-cn')('我们喜欢这个产品的质量');
    expect(words).toContain('喜欢');
    expect(words).toContain('产品');
    expect(words).toContain('质量');
  });
});

describe('countWords', () => {
  it('counts times and responses, most used first, ties by responses then alphabetically', () => {
    const result = countWords(
      [
        { response: '1', text: 'fast fast delivery' },
        { response: '2', text: 'slow delivery' },
        { response: '2', text: 'delivery again' },
        { response: '3', text: '' },
      ],
      tokenizer('en'),
    );
    expect(result.answered).toBe(2);
    expect(result.words).toEqual([
      { word: 'delivery', count: 3, responses: 2 },
      { word: 'fast', count: 2, responses: 1 },
      { word: 'again', count: 1, responses: 1 },
      { word: 'slow', count: 1, responses: 1 },
    ]);
  });
});
