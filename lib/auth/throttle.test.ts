import { describe, expect, it } from 'vitest';
import { PEER_ADDRESS_HEADER } from '@/lib/auth/peer-address';
import { clientAddress } from '@/lib/auth/throttle';

const forwarded = (value?: string) => new Headers(value === undefined ? {} : { 'x-forwarded-for': value });
/** A request as a route handler sees it: the connection's address stamped (lib/auth/peer-address.ts), and what the client sent. */
const direct = (peer: string | null, sent: Record<string, string> = {}) => new Headers({ ...sent, ...(peer ? { [PEER_ADDRESS_HEADER]: peer } : {}) });

describe('the client address the sign-in throttle counts by', () => {
  it("without a trusted proxy, is the connection's address; X-Forwarded-For and X-Real-IP are the client's words", () => {
    expect(clientAddress(direct('203.0.113.9'), 0)).toBe('203.0.113.9');
    expect(clientAddress(direct('203.0.113.9', { 'x-forwarded-for': '10.0.0.1, 198.51.100.4', 'x-real-ip': '198.51.100.5' }), 0)).toBe('203.0.113.9');
    // Unstamped (the server started without lib/auth/peer-address.ts): unknown, never the header.
    expect(clientAddress(forwarded('198.51.100.4'), 0)).toBeNull();
  });

  it('behind trusted proxies, is the address the nearest one saw, never an entry the client wrote', () => {
    expect(clientAddress(forwarded('1.2.3.4, 198.51.100.7'), 1)).toBe('198.51.100.7');
    expect(clientAddress(forwarded('forged, 198.51.100.7, 10.0.0.2'), 2)).toBe('198.51.100.7');
    // Fewer entries than proxies: the header is not what the proxies would write; no address.
    expect(clientAddress(forwarded('198.51.100.7'), 2)).toBeNull();
  });

  it('is none when there is no header to read', () => {
    expect(clientAddress(direct(null), 0)).toBeNull();
    expect(clientAddress(forwarded(), 1)).toBeNull();
    expect(clientAddress(forwarded(' , '), 1)).toBeNull();
  });

  it('counts an IPv6 client by its /64 network and an IPv4-mapped one as IPv4', () => {
    expect(clientAddress(direct('2001:db8:1:2:aaaa::1'), 0)).toBe('2001:db8:1:2::/64');
    expect(clientAddress(direct('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'), 0)).toBe('2001:db8:1:2::/64');
    expect(clientAddress(direct('[2001:db8::5]:443'), 0)).toBe('2001:db8:0:0::/64');
    expect(clientAddress(direct('::ffff:203.0.113.9'), 0)).toBe('203.0.113.9');
    expect(clientAddress(direct('203.0.113.9:5123'), 0)).toBe('203.0.113.9');
  });
});
