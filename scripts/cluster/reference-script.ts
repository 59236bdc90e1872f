// Answers for the fake model server that pass every protocol rule: what the built-in offline
// analyst writes for the same company and call, keyed by the step (and, for a sectioned step's
// calls, the part) and the company name the prompts carry. The fake server alone answers with
// schema-shaped filler, which a debate's own rules (questions aimed at the claims they examine,
// …) rightly refuse. Each answer is the one the
// offline analyst streamed, keys in the schema's order with the prose first (the database keeps
// outputs as jsonb, which orders keys its own way).
//
//   node --import tsx scripts/cluster/reference-script.ts --database-url <url> --company <id> \
//     --protocol kpd-mads --as-of 2025-03-31 --language en --out script.json
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { closeDb, getDb, type Db } from '@/lib/db/client';
import { getCompanyById } from '@/lib/db/queries/companies';
import { createRun, executeRun } from '@/lib/debate/engine';
import { partMarker } from '@/lib/debate/section-prompts';
import type { Language, ProtocolId, RunParams } from '@/lib/domain/protocol';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import type { ModelProvider } from '@/lib/llm/types';
import type { ScriptEntry } from '../fake-llm/server';

export async function referenceScript(db: Db, protocol: ProtocolId, companyId: string, params: Partial<RunParams>): Promise<ScriptEntry[]> {
  // Every call the analyst answers, as it streamed it: a sectioned step's section and overview
  // calls (docs/protocols.md, "Sections") each have an answer of their own.
  const offline = createOfflineAnalyst();
  const answers: { stepId: string; part?: string; raw: string }[] = [];
  const recording: ModelProvider = {
    name: offline.name,
    model: offline.model,
    isLLM: offline.isLLM,
    async generate(request) {
      const result = await offline.generate(request);
      answers.push({ stepId: request.step.id, part: request.part?.key, raw: result.raw });
      return result;
    },
  };
  const run = await createRun({ db, protocolId: protocol, companyId, provider: recording, params });
  const result = await executeRun({ db, runId: run.id, provider: recording });
  if (result.status !== 'succeeded') throw new Error(`offline reference run for ${companyId} ${protocol} failed: ${result.error}`);
  const company = await getCompanyById({ db, id: companyId });
  if (!company) throw new Error(`No company "${companyId}" in the database.`);
  const marker = `name: ${company.name}`;
  // A section's marker is what tells its prompt from its step's other calls.
  return answers.map((a) => ({ match: [`Step ${a.stepId} (`, ...(a.part ? [partMarker(a.stepId, a.part)] : []), marker], reply: a.raw }));
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
