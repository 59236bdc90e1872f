import { describe, expect, it } from 'vitest';
import { watchReach } from '@/lib/domain/watch';

describe('what the watch can read for a borrower', () => {
  it('reads a source only when the borrower has its identifier and the server is set up for it', () => {
    const onlyDart = (source: 'dart' | 'edgar') => source === 'dart';
    expect(watchReach({ corpCode: '00126380', cik: '0000320193' }, onlyDart)).toEqual([
      { source: 'dart', status: 'reads' },
      { source: 'edgar', status: 'notConfigured' },
    ]);
    expect(watchReach({ corpCode: null, cik: '0000320193' }, () => true)).toEqual([
      { source: 'dart', status: 'noIdentifier' },
      { source: 'edgar', status: 'reads' },
    ]);
    expect(watchReach({ corpCode: null, cik: null }, () => true).map((r) => r.status)).toEqual(['noIdentifier', 'noIdentifier']);
  });
});
