// A NUL typed into a search box or an address (%00) is refused by proxy.ts before any page or
// route runs a query with it: PostgreSQL refuses a NUL in text, and the companies search, the
// cases filter or a company's page answered with an internal error.
import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { proxy } from '@/proxy';

const request = (path: string) => new NextRequest(`http://localhost:3000${path}`);

describe('a NUL in the address', () => {
  it('is refused as a bad request, for pages and routes, signed in or not', async () => {
    for (const path of ['/companies?q=a%00b', '/cases?company=%00', '/companies/tesla%00', '/api/runs/x/export?format=md%00', '/login?callbackUrl=%2F%00']) {
      const res = await proxy(request(path));
      expect(res.status, path).toBe(400);
      expect(await res.json(), path).toEqual({
        code: 'bad_request',
        message: 'This address contains a NUL character (%00), which no page or search accepts. Remove it and try again.',
      });
    }
  });

  it('leaves every other address as it was: "%2500" is the text "%00", not a NUL', async () => {
    expect((await proxy(request('/companies?q=%2500'))).status).toBe(307);
    expect((await proxy(request('/companies?q=ok'))).headers.get('location')).toBe('http://localhost:3000/login?callbackUrl=%2Fcompanies%3Fq%3Dok');
    expect((await proxy(request('/login'))).status).toBe(200);
  });
});
