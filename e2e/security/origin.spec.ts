// Server actions and other state-changing requests that name no origin are refused (proxy.ts,
// lib/auth/csrf.ts). Next.js compares a server action's Origin with the host only when the
// header is present, so without this a forged request that leaves it out ran the action with
// the victim's cookie. (A foreign Origin is e2e/security.spec.ts; the rule itself is
// lib/auth/csrf.test.ts.)
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { serverActionsOf, type BuildAction } from '../../lib/auth/endpoints';
import { ACTIONS, can, PUBLIC_ACTIONS } from '../../lib/auth/permissions';
import { DEMO_PASSWORD, DEMO_USERS, signInAs } from '../fixtures';

function builtActions(): BuildAction[] {
  return serverActionsOf(JSON.parse(fs.readFileSync(path.join(process.cwd(), '.next', 'server', 'server-reference-manifest.json'), 'utf8')));
}

const REFUSAL = 'This request did not say which site it came from';

test.describe('requests without an origin', () => {
  test('a server action posted without an Origin header is refused before it runs', async ({ page, baseURL }) => {
    // An action the RM may call, posted to a page it is bundled with.
    const { id, exportedName, route } = builtActions().find((a) => {
      const permission = ACTIONS[a.exportedName as keyof typeof ACTIONS];
      return permission !== undefined && can('rm', permission) && a.exportedName !== 'signOutAction';
    })!;
    await signInAs(page, 'rm');
    const post = (headers: Record<string, string>) =>
      page.request.post(route, {
        headers: { 'Next-Action': id, 'Content-Type': 'text/plain;charset=UTF-8', Accept: 'text/x-component', ...headers },
        data: JSON.stringify([{}]),
        maxRedirects: 0,
      });

    // From our own origin the action runs and answers with its own validation error: the
    // session and the request are good, only the origin decides below.
    const same = await post({ Origin: baseURL! });
    expect(await same.text(), `${exportedName} from our origin`).toContain('"code":"bad_request"');
    // A browser that sends only Sec-Fetch-Site: same-origin is let through as well.
    const fetchMetadata = await post({ 'Sec-Fetch-Site': 'same-origin' });
    expect(await fetchMetadata.text(), `${exportedName} marked same-origin`).toContain('"code":"bad_request"');

    const forged: Record<string, string>[] = [{}, { Origin: 'null' }, { 'Sec-Fetch-Site': 'cross-site' }];
    for (const headers of forged) {
      const refused = await post(headers);
      const label = `${exportedName} with ${JSON.stringify(headers)}`;
      expect(refused.status(), label).toBe(403);
      const body = await refused.json();
      expect(body.code, label).toBe('forbidden');
      expect(body.message, label).toContain(REFUSAL);
    }
  });

  test('the sign-in action posted without an Origin header is refused, and signs nobody in', async ({ playwright, baseURL }) => {
    // The right password: were the request let through, it would sign in (a forged sign-in).
    const signIn = builtActions().find((a) => a.exportedName === PUBLIC_ACTIONS[0])!;
    const anonymous = await playwright.request.newContext({ baseURL });
    try {
      const response = await anonymous.post(signIn.route, {
        headers: { 'Next-Action': signIn.id, 'Content-Type': 'text/plain;charset=UTF-8', Accept: 'text/x-component' },
        data: JSON.stringify([{ email: DEMO_USERS.rm.email, password: DEMO_PASSWORD }]),
        maxRedirects: 0,
      });
      expect(response.status()).toBe(403);
      expect((await response.json()).message).toContain(REFUSAL);
      const cookies = (await anonymous.storageState()).cookies.map((c) => c.name);
      expect(cookies.some((name) => name.includes('authjs.session-token'))).toBe(false);
    } finally {
      await anonymous.dispose();
    }
  });
});
