// The static files in public/ that browsers and crawlers ask for on their own: they answer
// without a session (proxy.ts's matcher skips them), so a signed-out page load logs no 404 and
// a crawler that reaches the site is told to index nothing.
import { expect, request as apiRequest, test } from '@playwright/test';

test.describe('public static files', () => {
  test('/favicon.ico and /robots.txt answer without signing in; robots.txt disallows all indexing', async ({ baseURL }) => {
    // A fresh context: no session cookie, and no following a redirect to /login (which answers 200).
    const context = await apiRequest.newContext({ baseURL, maxRedirects: 0 });

    const icon = await context.get('/favicon.ico');
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    // An ICO file starts with reserved 0 and type 1 (icon).
    expect([...(await icon.body()).subarray(0, 4)]).toEqual([0, 0, 1, 0]);

    const robots = await context.get('/robots.txt');
    expect(robots.status()).toBe(200);
    expect(robots.headers()['content-type']).toMatch(/^text\/plain/);
    const text = await robots.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Disallow: \/$/m);

    await context.dispose();
  });
});
