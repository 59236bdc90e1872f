// The line the CLI and start-up print about the demo accounts' password (issue 30, item 9).
import { describe, expect, it } from 'vitest';
import { demoPasswordNote } from '@/lib/demo/accounts';
import { DEFAULT_DEMO_PASSWORD } from '@/lib/env';

describe('demoPasswordNote', () => {
  it('prints the password itself when DEMO_PASSWORD is unset', () => {
    expect(DEFAULT_DEMO_PASSWORD).toBe('crosscheck-demo');
    expect(demoPasswordNote(DEFAULT_DEMO_PASSWORD, DEFAULT_DEMO_PASSWORD)).toBe('password: crosscheck-demo');
  });

  it('names the variable, never its value, when DEMO_PASSWORD is set', () => {
    const note = demoPasswordNote('a-secret-demo-pass', DEFAULT_DEMO_PASSWORD);
    expect(note).toBe('password: the value of DEMO_PASSWORD in this environment');
    expect(note).not.toContain('a-secret-demo-pass');
  });
});
