// Protocol knowledge lives in the protocol files: each step declares its role, its lane and its
// retrieval query there, and no code elsewhere decides anything by a step's id, an agent's name
// or a protocol's id.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROTOCOLS } from '@/lib/domain/vocabulary';
import { STEP_ROLES, type StepRole } from '@/lib/domain/protocol';
import { PROTOCOLS_BY_ID, getProtocol } from '@/lib/debate/protocols';

const protocols = Object.values(PROTOCOLS_BY_ID);
const allSteps = protocols.flatMap((p) => p.steps.map((s) => ({ protocol: p.id, ...s })));

describe('every step declares what it needs', () => {
  it('declares a known role', () => {
    for (const s of allSteps) expect(STEP_ROLES, `${s.protocol}/${s.id}`).toContain(s.role);
  });

  it('has at most one step per role that other steps or the report look up', () => {
    const lookedUp: StepRole[] = ['draft-writer', 'leader', 'judge', 'stress-analyst', 'aggregator', 'safety-checker'];
    for (const p of protocols) for (const role of lookedUp) expect(p.steps.filter((s) => s.role === role).length, `${p.id} ${role}`).toBeLessThanOrEqual(1);
  });

  it('gives every specialist a lane of its own, and only specialists a lane', () => {
    for (const s of allSteps) expect(s.focus !== undefined, `${s.protocol}/${s.id}`).toBe(s.role === 'specialist');
    const lanes = allSteps.flatMap((s) => (s.focus ? [s.focus] : []));
    expect(new Set(lanes).size).toBe(lanes.length);
  });

  it('gives each FinDebate specialist its retrieval query, and a query only to steps that read documents', () => {
    const specialists = getProtocol('findebate').steps.filter((s) => s.role === 'specialist');
    expect(specialists).toHaveLength(5);
    for (const s of specialists) {
      expect(s.evidence).toBe('documents');
      expect(s.query, s.id).toMatch(/[a-z].*[가-힣]/);
    }
    for (const s of allSteps) if (s.query !== undefined) expect(s.evidence, `${s.protocol}/${s.id}`).toBe('documents');
  });
});

// Source files that may not know about particular steps: everything but the protocol files,
// tests and their helpers (`test-*.ts`), and the relay's scripted peer (a fake run for its tests).
const ROOTS = ['lib', 'app', 'components', 'scripts', 'proxy.ts', 'instrumentation.ts'];
const EXEMPT = [/^lib\/debate\/protocols\//, /\.test\.tsx?$/, /(^|\/)test-[^/]*\.tsx?$/, /^lib\/debate\/relay-fixtures\//];

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    const abs = path.join(process.cwd(), rel);
    if (!fs.existsSync(abs)) return;
    if (fs.statSync(abs).isDirectory()) {
      for (const entry of fs.readdirSync(abs)) if (entry !== 'node_modules') walk(`${rel}/${entry}`);
    } else if (/\.tsx?$/.test(rel) && !EXEMPT.some((re) => re.test(rel))) {
      out.push(rel);
    }
  };
  for (const root of ROOTS) walk(root);
  return out;
}

/** The code without its comments, which may name steps freely (a `//` after `:` is a URL). */
function code(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

const stepIds = new Set(allSteps.map((s) => s.id));
const protocolIds = PROTOCOLS.join('|');
// Ways of deciding by a name: comparing a step's id or agent with a literal, testing one against
// a pattern, or switching on a protocol id.
const DECIDING = [
  /\.(agent|stepId)\s*[!=]==?\s*['"`]/,
  /['"`]\s*[!=]==?\s*[\w.]+\.(agent|stepId)\b/,
  /\/[^/\n]+\/[gimsuy]*\.test\([^)\n]*\.(agent|id|stepId)\b/,
  new RegExp(`\\bprotocol(Id)?\\s*[!=]==\\s*['"](${protocolIds})['"]`),
  new RegExp(`\\bcase\\s+['"](${protocolIds})['"]\\s*:`),
];

describe('no code outside lib/debate/protocols knows a step by its id', () => {
  const files = sourceFiles().map((file) => ({ file, code: code(fs.readFileSync(path.join(process.cwd(), file), 'utf8')) }));

  it('scans the tree', () => {
    expect(files.some((f) => f.file === 'lib/debate/engine.ts')).toBe(true);
    expect(files.some((f) => f.file.startsWith('lib/llm/offline/'))).toBe(true);
  });

  it('writes no step id as a string', () => {
    const found = files.flatMap(({ file, code }) =>
      [...code.matchAll(/(['"`])([A-Z][A-Z0-9-]*)\1/g)].filter((m) => stepIds.has(m[2])).map((m) => `${file}: ${m[0]}`),
    );
    expect(found).toEqual([]);
  });

  it('never decides by a step id, an agent name or a protocol id', () => {
    const found = files.flatMap(({ file, code }) => code.split('\n').filter((line) => DECIDING.some((re) => re.test(line))).map((line) => `${file}: ${line.trim()}`));
    expect(found).toEqual([]);
  });
});
