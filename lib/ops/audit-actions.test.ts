import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditActionLabel, auditEntityLabel } from '@/lib/ops/audit-detail';

// Every action (and kind of record) the code writes to the audit log, read from the source: a quoted `area.verb`
// after `action:` (a ternary's branches included). The audit page's filter and table show each by
// its label, and an action without one showed as its raw key (`study.open`).
function written(field: 'action' | 'entityType', pattern: RegExp): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(full);
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        for (const line of fs.readFileSync(full, 'utf8').split('\n')) {
          const at = line.indexOf(`${field}: `);
          if (at < 0) continue;
          // The field's own value: up to the next field or the object's end.
          const rest = line.slice(at);
          const end = rest.search(/,\s*[A-Za-z]+:|\}/);
          for (const m of (end > 0 ? rest.slice(0, end) : rest).matchAll(pattern)) found.add(m[1]);
        }
      }
    }
  };
  for (const dir of ['lib', 'app', 'scripts', 'components']) walk(path.join(process.cwd(), dir));
  return [...found].sort();
}

describe('audit actions', () => {
  it('every action the code records has a label in English and Korean', () => {
    const actions = written('action', /'([a-z][a-z-]*(?:\.[a-z][a-z-]*)+)'/g);
    // The scan finds them (an empty list would pass anything).
    expect(actions).toEqual(expect.arrayContaining(['case.submit', 'study.open', 'study.close', 'user.disable']));
    const unlabelled = actions.flatMap((a) => (['en', 'ko'] as const).filter((l) => auditActionLabel(a, l) === a).map((l) => `${a} (${l})`));
    expect(unlabelled).toEqual([]);
  });

  it('every kind of record an entry is about has a label in English and Korean', () => {
    // A quoted word passed to a call (`value('entity', …)`) is an argument, not a kind.
    const types = written('entityType', /(?<!\()'([a-z][a-z_]*)'/g);
    expect(types).toEqual(expect.arrayContaining(['case', 'run', 'user', 'document_candidate']));
    const unlabelled = types.flatMap((e) => (['en', 'ko'] as const).filter((l) => auditEntityLabel(e, l) === e).map((l) => `${e} (${l})`));
    expect(unlabelled).toEqual([]);
  });
});
