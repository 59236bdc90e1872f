import { describe, expect, it } from 'vitest';
import { clientAddress } from '@/lib/auth/throttle';

const forwarded = (value?: string) => new Headers(value === undefined ? {} : { 'x-forwarded-for': value });

describe('the client address the sign-in throttle counts by', () => {
  it('without a trusted proxy, is the address Next.js wrote from the connection (the last entry)', () => {
    expect(clientAddress(forwarded('203.0.113.9'), 0)).toBe('203.0.113.9');
    expect(clientAddress(forwarded('10.0.0.1, 203.0.113.9'), 0)).toBe('203.0.113.9');
  });

  it('behind trusted proxies, is the address the nearest one saw, never an entry the client wrote', () => {
    expect(clientAddress(forwarded('1.2.3.4, 198.51.100.7'), 1)).toBe('198.51.100.7');
    expect(clientAddress(forwarded('forged, 198.51.100.7, 10.0.0.2'), 2)).toBe('198.51.100.7');
    // Fewer entries than proxies: the header is not what the proxies would write; no address.
    expect(clientAddress(forwarded('198.51.100.7'), 2)).toBeNull();
  });

  it('is none when there is no header to read', () => {
    expect(clientAddress(forwarded(), 0)).toBeNull();
    expect(clientAddress(forwarded(' , '), 0)).toBeNull();
  });

  it('counts an IPv6 client by its /64 network and an IPv4-mapped one as IPv4', () => {
    expect(clientAddress(forwarded('2001:db8:1:2:aaaa::1'), 0)).toBe('2001:db8:1:2::/64');
    expect(clientAddress(forwarded('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'), 0)).toBe('2001:db8:1:2::/64');
    expect(clientAddress(forwarded('[2001:db8::5]:443'), 0)).toBe('2001:db8:0:0::/64');
    expect(clientAddress(forwarded('::ffff:203.0.113.9'), 0)).toBe('203.0.113.9');
    expect(clientAddress(forwarded('203.0.113.9:5123'), 0)).toBe('203.0.113.9');
  });
});
