// Protocol knowledge lives in the protocol files: each step declares its role, its lane and its
// retrieval query there, and no code elsewhere decides anything by a step's id, an agent's name
// or a protocol's id.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROTOCOLS } from '@/lib/domain/vocabulary';
import { STEP_ROLES, type StepRole } from '@/lib/domain/protocol';
import { PROTOCOLS_BY_ID, getProtocol, getStep } from '@/lib/debate/protocols';
import { QUERY_FAMILIES } from '@/lib/debate/protocols/findebate';

const protocols = Object.values(PROTOCOLS_BY_ID);
const step = getStep;
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

  it("retrieves FinDebate's passages with the four published query families only, each specialist with its lane's", () => {
    const families: string[] = Object.values(QUERY_FAMILIES);
    expect(families).toHaveLength(4);
    for (const q of families) expect(q).toMatch(/[a-z].*[가-힣]/);
    const fd = getProtocol('findebate');
    const reading = fd.steps.filter((s) => s.evidence === 'documents');
    // No query of its own: every step that reads documents draws on the families.
    for (const s of reading) {
      expect(s.query, s.id).toBeUndefined();
      expect(s.queries?.length, s.id).toBeGreaterThan(0);
      for (const q of s.queries!) expect(families, s.id).toContain(q);
    }
    const lane = (id: string) => step(fd, id).queries!.map((q) => families.indexOf(q));
    expect(Object.fromEntries(['S-PERF', 'S-MKT', 'S-MGMT', 'S-COLL', 'S-RISK', 'TRUST', 'SKEPTIC'].map((id) => [id, lane(id)]))).toEqual({
      'S-PERF': [0],
      'S-MKT': [1],
      'S-MGMT': [3],
      'S-COLL': [0, 1],
      'S-RISK': [2],
      TRUST: [0, 1, 2, 3],
      SKEPTIC: [2, 1],
    });
    // The specialists together cover all four families.
    expect(new Set(fd.steps.filter((s) => s.role === 'specialist').flatMap((s) => s.queries!)).size).toBe(4);
  });

  it('gives a query only to steps that read documents', () => {
    for (const s of allSteps) if (s.query !== undefined || s.queries !== undefined) expect(s.evidence, `${s.protocol}/${s.id}`).toBe('documents');
  });

  it("gives a lane of the pool to FinDebate's specialists and SAS's management and industry briefings only, each reading the pool or documents", () => {
    const laned = allSteps.filter((s) => s.lane).map((s) => `${s.protocol}/${s.id}`);
    expect(laned.sort()).toEqual(['findebate/S-COLL', 'findebate/S-MGMT', 'findebate/S-MKT', 'findebate/S-PERF', 'findebate/S-RISK', 'sas/B-I', 'sas/B-M']);
    for (const s of allSteps) if (s.lane) expect(['documents', 'pool'], `${s.protocol}/${s.id}`).toContain(s.evidence);
    // SAS's factual briefing reads the whole pool: every item reaches the debate.
    expect(allSteps.find((s) => s.protocol === 'sas' && s.id === 'B-F')!.lane).toBeUndefined();
  });

  it("gives a turn lane to FinDebate's trust agent and skeptic only, reading documents, on turns they receive", () => {
    const laned = allSteps.filter((s) => s.turnLane).map((s) => `${s.protocol}/${s.id}`);
    expect(laned).toEqual(['findebate/TRUST', 'findebate/SKEPTIC']);
    for (const s of allSteps.filter((x) => x.turnLane)) {
      expect(s.evidence, s.id).toBe('documents');
      expect(s.lane, s.id).toBeUndefined();
      for (const id of [...(s.turnLane!.backs ?? []), ...(s.turnLane!.checks ?? [])]) expect(s.context, `${s.id} → ${id}`).toContain(id);
    }
  });
});

// Source files that may not know about particular steps: everything but the protocol files,
// tests and their helpers (`test-*.ts`).
const ROOTS = ['lib', 'app', 'components', 'scripts', 'proxy.ts', 'instrumentation.ts'];
const EXEMPT = [/^lib\/debate\/protocols\//, /\.test\.tsx?$/, /(^|\/)test-[^/]*\.tsx?$/];

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
    const found = files.flatMap(({ file, code }) =>
      code
        .split('\n')
        .filter((line) => DECIDING.some((re) => re.test(line)))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });
});
