// Answers for the fake model server that pass every protocol rule: what the built-in offline
// analyst writes for the same company and step, keyed by the step and company name the prompts
// carry. The fake server alone answers with schema-shaped filler, which a debate's own rules
// (questions aimed at the claims they examine, …) rightly refuse. Each answer is written as the
// offline analyst streams it, keys in the schema's order with the prose first: the database keeps
// outputs as jsonb, which orders keys its own way.
//
//   node --import tsx scripts/cluster/reference-script.ts --database-url <url> --company <id> \
//     --protocol kpd-mads --as-of 2025-03-31 --language en --out script.json
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { closeDb, getDb, type Db } from '@/lib/db/client';
import { listRunSteps } from '@/lib/db/queries/runs';
import { getCompanyById } from '@/lib/db/queries/companies';
import { createRun, executeRun } from '@/lib/debate/engine';
import { getProtocol } from '@/lib/debate/protocols';
import { outputJson } from '@/lib/domain/outputs';
import type { Language, ProtocolId, RunParams } from '@/lib/domain/protocol';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import type { ScriptEntry } from '../fake-llm/server';

export async function referenceScript(db: Db, protocol: ProtocolId, companyId: string, params: Partial<RunParams>): Promise<ScriptEntry[]> {
  const offline = createOfflineAnalyst();
  const run = await createRun({ db, protocolId: protocol, companyId, provider: offline, params });
  const result = await executeRun({ db, runId: run.id, provider: offline });
  if (result.status !== 'succeeded') throw new Error(`offline reference run for ${companyId} ${protocol} failed: ${result.error}`);
  const steps = await listRunSteps({ db, runId: run.id });
  const company = await getCompanyById({ db, id: companyId });
  if (!company) throw new Error(`No company "${companyId}" in the database.`);
  const marker = `name: ${company.name}`;
  const kinds = new Map(getProtocol(protocol).steps.map((s) => [s.id, s.output]));
  return steps.map((s) => ({ match: [`Step ${s.stepId} (`, marker], reply: outputJson(kinds.get(s.stepId)!, s.output) }));
}

async function main() {
  const { values } = parseArgs({
    options: {
      'database-url': { type: 'string' },
      company: { type: 'string' },
      protocol: { type: 'string', default: 'kpd-mads' },
      'as-of': { type: 'string' },
      language: { type: 'string', default: 'en' },
      out: { type: 'string' },
    },
  });
  if (!values['database-url'] || !values.company || !values['as-of'] || !values.out) throw new Error('needs --database-url, --company, --as-of and --out');
  process.env.DATABASE_URL = values['database-url'];
  const db = await getDb();
  const script = await referenceScript(db, values.protocol as ProtocolId, values.company, { asOf: values['as-of'], language: values.language as Language });
  fs.writeFileSync(values.out, JSON.stringify(script));
  await closeDb();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
