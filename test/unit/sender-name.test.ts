// The display name of invitations: never an address, a link or a domain, always "via Survey Service".
import { describe, expect, it } from 'vitest';
import { safeDisplayName, senderName } from '../../src/domain/invitations/sender.js';

describe('safeDisplayName', () => {
  it.each([
    ['Ana Lima', 'Ana Lima'],
    ['security@paypal.com', ''],
    ['PayPal.com Security', 'Security'],
    ['Billing <it@paypal.com>', 'Billing'],
    ['Support https://paypal.com/login', 'Support'],
    ['ｓｅｃｕｒｉｔｙ＠ｐａｙｐａｌ．ｃｏｍ', ''],
    ['Ana "the boss" Lima', 'Ana the boss Lima'],
    ['Ana\r\nBcc: x', 'Ana Bcc x'],
    ['Ana\u202eLima', 'Ana Lima'],
    ['José Müller-Lüdenscheidt', 'José Müller-Lüdenscheidt'],
    ['@@@', ''],
  ])('%j -> %j', (raw, want) => {
    expect(safeDisplayName(raw)).toBe(want);
  });
});

describe('senderName', () => {
  it('is the name via Survey Service, else the username, else Survey Service', () => {
    expect(senderName({ first_name: 'Ana', last_name: null, username: 'ana' })).toBe(
      'Ana via Survey Service',
    );
    expect(senderName({ first_name: 'x@y.org', last_name: '', username: 'ana_l' })).toBe(
      'ana_l via Survey Service',
    );
    expect(senderName({ first_name: null, last_name: null, username: 'security@paypal.com' })).toBe(
      'Survey Service',
    );
  });
});
