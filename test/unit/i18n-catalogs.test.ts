// The service's own words on the respondent pages: every shipped language has exactly English's
// keys, each with the same parameters, and none is left empty or in English by mistake.
import { describe, expect, it } from 'vitest';
import {
  acceptedLanguages,
  CATALOGS,
  catalogFor,
  directionOf,
  messageText,
  translator,
} from '../../src/platform/i18n/index.js';

const SHIPPED = ['en', 'de', 'fr', 'es', 'pt', 'it', 'nl', 'pl', 'sv', 'tr', 'ar', 'he', 'ja', 'zh'];
const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('respondent catalogs', () => {
  it('ship the languages promised', () => {
    expect(Object.keys(CATALOGS).sort()).toEqual([...SHIPPED].sort());
  });

  for (const code of SHIPPED.filter((c) => c !== 'en'))
    it(`${code}: every English key, no other, with the same parameters`, () => {
      const en = CATALOGS.en;
      const other = CATALOGS[code];
      const missing = Object.keys(en).filter((k) => !Object.hasOwn(other, k));
      const extra = Object.keys(other).filter((k) => !Object.hasOwn(en, k));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
      for (const [k, v] of Object.entries(other)) {
        expect(v.trim(), `${code}.${k}`).not.toBe('');
        expect(params(v), `${code}.${k}`).toEqual(params(en[k as keyof typeof en]));
      }
      // a catalog copied from English and not translated
      const same = Object.keys(en).filter((k) => other[k as keyof typeof en] === en[k as keyof typeof en]);
      expect(same.length, `${code} words left in English: ${same.join(', ')}`).toBeLessThan(6);
    });

  it('fill parameters and fall back to English for a language not shipped', () => {
    expect(translator('de')('progress', { page: 2, total: 5 })).toBe('Seite 2 von 5');
    expect(translator('pt-br')('next')).toBe('Seguinte');
    expect(catalogFor('fi').lang).toBe('en');
    expect(messageText({ key: 'sum', params: { sum: 100 } }, 'fr')).toBe(
      'La somme des nombres doit être égale à 100.',
    );
    expect(messageText({ text: 'Mine.' }, 'ja')).toBe('Mine.');
  });

  it('know the right-to-left scripts and read Accept-Language by weight', () => {
    expect(['ar', 'he', 'fa', 'ur', 'ar-EG'].map(directionOf)).toEqual(['rtl', 'rtl', 'rtl', 'rtl', 'rtl']);
    expect(directionOf('de')).toBe('ltr');
    expect(acceptedLanguages('fr;q=0.5, ar-EG, de;q=0, *;q=0.1')).toEqual(['ar-eg', 'fr']);
  });
});
