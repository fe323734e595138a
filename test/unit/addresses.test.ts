// The throttle key of a client address: IPv4 as is, IPv6 by its /64 in one spelling.
import { describe, expect, it } from 'vitest';
import { addressKey } from '../../src/platform/addresses.js';

describe('addressKey', () => {
  it('keeps an IPv4 address, and reads an IPv4-mapped IPv6 address as IPv4', () => {
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('::FFFF:c633:6407')).toBe('198.51.100.7');
  });

  it('keys IPv6 by its /64, however the address is written', () => {
    const key = '2001:db8:0:2::/64';
    for (const ip of [
      '2001:db8:0:2::1',
      '2001:0db8:0000:0002:ffff:ffff:ffff:fffe',
      '2001:DB8::2:1:2:3:4',
      '2001:db8:0:2::1%eth0',
      '2001:db8:0:2:0:0:1.2.3.4',
    ])
      expect(addressKey(ip), ip).toBe(key);
    expect(addressKey('2001:db8:0:3::1')).toBe('2001:db8:0:3::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1')).toBe('fe80:0:0:0::/64');
  });

  it('leaves anything that is not an address as it is', () => {
    expect(addressKey('unknown')).toBe('unknown');
  });
});
