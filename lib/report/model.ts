// The report of a run as one renderer-neutral document: the page, the Markdown and the PDF
// exports all draw this same tree, so they cannot drift apart. Pure: no database, no React.
// The document's shape is lib/report/doc.ts, shared with the protocol sections (sections.ts).
import { poolNoteOf } from '@/lib/domain/cited-source';
import type { RunView } from '@/lib/report/run-doc';
import { translator, type Locale } from '@/lib/i18n';
import { contentLanguageOf } from '@/lib/i18n/content-language';
import { reportMessages, type ReportMessages } from '@/lib/i18n/messages/report';
import { FACTORS } from '@/lib/domain/factors';
import type { BuildContext, CheckRow, CitationRef, Field, RedFlagRow, ReportDoc, ReportInput, Sources, TranscriptTurn } from '@/lib/report/doc';
import { protocolSections } from '@/lib/report/sections';
import { actLabel, agentLabel } from '@/lib/i18n/messages/debate-terms';
import { redFlagKindKey, redFlagMessages } from '@/lib/i18n/messages/red-flags';
import { repairMessages } from '@/lib/i18n/messages/repairs';
import { readingMismatches, type ReadingMismatch } from '@/lib/eval/reading-consistency';
import { screeningNotice, screeningSections } from '@/lib/report/screening';
import { weighSection } from '@/lib/report/weigh';
import { plainSections, plainTurnNames, transcriptAnchors, turnNames, turnSegments } from '@/lib/report/turn-names';
import { summariesBeyondTopics } from '@/lib/report/summaries';
import { getProtocol, isProtocolId } from '@/lib/debate/protocols';
import { failedChecksNotice, reportCheckRows } from '@/lib/report/failed-checks';
import { aiAssistedLines, humanOversightLines } from '@/lib/report/oversight-text';

export type * from '@/lib/report/doc';

/** The factor's label without its parenthetical example ("Certifications", "인증 보유"). */
export function shortFactorLabel(factor: string, locale: Locale): string {
  const f = FACTORS.find((x) => x.id === factor);
  if (!f) return factor;
  return (locale === 'ko' ? f.labelKo : f.label).replace(/\s*\([^)]*\)/g, '').trim();
}

function citeWith(sources: Sources, finished: boolean) {
  return (citations: unknown): CitationRef[] => {
    if (!Array.isArray(citations)) return [];
    return citations
      .filter((c): c is Record<string, unknown> => Boolean(c) && typeof c === 'object')
      .map((c) => {
        const evidenceId = typeof c.evidenceId === 'string' ? c.evidenceId : undefined;
        // A citation the engine did not verify (its step was not shown that item) is shown as the
        // model wrote it: never the title or link of whatever the pool holds under its id.
        const found = evidenceId && c.verified === true ? sources[evidenceId] : undefined;
        return {
          source: String(c.source ?? ''),
          date: String(c.date ?? ''),
          value: typeof c.value === 'string' && c.value ? c.value : undefined,
          evidenceId,
          verified: c.verified === true,
          afterAsOf: c.afterAsOf === true ? true : undefined,
          url: found?.url,
          title: found?.title,
          // While a run is going its sources are read live by design: nothing to mark.
          poolNote: finished ? poolNoteOf(found) : undefined,
        };
      });
  };
}

const STATUS_KEY = {
  queued: 'statusQueued',
  running: 'statusRunning',
  succeeded: 'statusSucceeded',
  failed: 'statusFailed',
  cancelled: 'statusCancelled',
  budget_exceeded: 'statusBudgetExceeded',
  insufficient_evidence: 'statusInsufficientEvidence',
  red_flag_screening: 'statusRedFlagScreening',
} as const satisfies Record<RunView['status'], keyof ReportMessages>;

/**
 * `blind`: for a study's evaluator (lib/eval/study-blind.ts), the system's own report only: step
 * ids stay as written, for the study's redactor to make "Turn n" (named turns would tell the
 * protocol), and no bottom line of ours, whose speakers would name the system.
 */
export function buildReportDoc(input: ReportInput, locale: Locale, { blind = false }: { blind?: boolean } = {}): ReportDoc {
  const { view, sources } = input;
  const t = translator(reportMessages, locale);
  const number = new Intl.NumberFormat(locale === 'ko' ? 'ko-KR' : 'en-US');
  const params = (view.params ?? {}) as { asOf?: string; language?: string };
  const companyName = 'name' in view.company && view.company.name ? view.company.name : view.company.id;
  const companyNameEn = 'nameEn' in view.company && view.company.nameEn ? view.company.nameEn : null;
  const companyLine = companyNameEn && companyNameEn !== companyName ? `${companyName} (${companyNameEn})` : companyName;
  // The title and headline name the borrower in the reader's language: the English name in the
  // English interface when the pool has one, the registered (often Korean) name otherwise.
  const shownName = locale === 'en' && companyNameEn ? companyNameEn : companyName;
  const ctx: BuildContext = {
    t,
    locale,
    view,
    sources,
    // Factor names label the run's own content (topics, summary groups): in the run's language (lib/i18n/content-language.ts).
    factorLabel: (f) => shortFactorLabel(f, contentLanguageOf(params)),
    cite: citeWith(sources, input.sourcesState !== 'live'),
    turn: (step) => view.turns.find((x) => x.step === step && x.status === 'done'),
  };

  const asOf = params.asOf ?? '';
  const m = view.metrics;
  const header: Field[] = [
    { label: t('company'), value: companyLine },
    { label: t('protocol'), value: input.protocolName },
    { label: t('provider'), value: view.provider === 'offline' ? t('offlineProvider') : t('llmProvider', { model: view.model }) },
    { label: t('asOf'), value: asOf || t('notMeasured') },
    { label: t('language'), value: params.language === 'en' ? t('langEn') : params.language === 'ko' ? t('langKo') : (params.language ?? t('notMeasured')) },
    { label: t('status'), value: t(STATUS_KEY[view.status]) },
    { label: t('mode'), value: view.mode === 'sequential' ? t('modeSequential') : t('modeDag') },
    { label: t('runId'), value: view.id },
  ];
  const metrics: Field[] = [
    { label: t('breadth'), value: number.format(m.breadth) },
    { label: t('rei'), value: number.format(m.rei) },
    {
      label: t('grounding'),
      value: m.citationGrounding === null || m.citationGrounding === undefined ? t('notMeasured') : `${Math.round(m.citationGrounding * 100)} %`,
    },
    { label: t('latency'), value: m.latencyMs === null ? t('notMeasured') : t('seconds', { n: (m.latencyMs / 1000).toFixed(1) }) },
    {
      label: t('tokens'),
      value: m.tokens.cached
        ? t('tokensValueCached', {
            total: number.format(m.tokens.total),
            prompt: number.format(m.tokens.prompt),
            cached: number.format(m.tokens.cached),
            completion: number.format(m.tokens.completion),
          })
        : t('tokensValue', { total: number.format(m.tokens.total), prompt: number.format(m.tokens.prompt), completion: number.format(m.tokens.completion) }),
    },
    { label: t('cost'), value: `$${m.costUsd.toFixed(4)}` },
  ];

  const done = view.turns.filter((x) => x.status === 'done').length;
  let notice: ReportDoc['notice'] = null;
  if (view.status === 'failed') notice = { tone: 'error', title: t('failedTitle'), text: [t('failedBody'), view.error].filter(Boolean).join(' ') };
  else if (view.status === 'cancelled') notice = { tone: 'error', title: t('statusCancelled'), text: t('cancelledBody') };
  else if (view.status === 'budget_exceeded')
    notice = { tone: 'error', title: t('budgetTitle'), text: [t('budgetBody'), view.error].filter(Boolean).join(' ') };
  else if (view.status !== 'succeeded' && view.status !== 'red_flag_screening')
    notice = { tone: 'info', text: t('inProgress', { done, total: input.totalSteps }) };

  const sourcesNote = input.sourcesState === 'not-frozen' ? t('notFrozenLong') : null;

  let sections = view.report ? protocolSections(view.protocol, view.report.content, ctx) : [];
  // The stored checks and the reading-consistency check (lib/report/failed-checks.ts); the failed
  // ones also lead the document, above the report, with their counts.
  const checks: CheckRow[] = reportCheckRows(view, sources, locale);
  const failedChecks = failedChecksNotice(checks, locale);

  // Red flags first; then every claim that argues against the tagged reading of what it cites,
  // read from the sources as the run recorded them (lib/eval/reading-consistency.ts).
  const tf = translator(redFlagMessages, locale);
  const flagSources = input.redFlagSources ?? {};
  const redFlags: RedFlagRow[] = (view.redFlags ?? []).map((f) => {
    // As the run cited it when it did (a finished run's snapshot), else as the pool has it.
    const s = sources[f.evidenceId] ?? flagSources[f.evidenceId];
    return {
      kind: f.kind,
      label: tf(redFlagKindKey(f.kind)),
      date: f.date,
      title: f.title,
      evidenceId: f.evidenceId,
      ...(s?.sourceName ? { source: s.sourceName } : {}),
      ...(s?.url ? { url: s.url } : {}),
      ...(f.alsoEvidenceIds?.length ? { alsoEvidenceIds: f.alsoEvidenceIds } : {}),
    };
  });
  // A red-flag screening (lib/report/screening.ts) has no debate: its sections and notice are the screening's.
  if (view.status === 'red_flag_screening') {
    // The screening is the application's own words, no model's: its factor names follow the reader.
    const screening = { asOf, shortfall: view.shortfall, flags: redFlags, factorLabel: (f: string) => shortFactorLabel(f, locale), locale };
    notice = screeningNotice(screening);
    sections = screeningSections(screening);
  }
  const mismatches = readingMismatches(view.turns, (id) => sources[id]?.polarity);
  const mismatchLines = (m: ReadingMismatch, key: 'transcriptLine') =>
    m.against.map((a) =>
      tf(key, {
        claim: m.claimId,
        step: m.step,
        polarity: tf(`polarity_${m.polarity}`),
        reading: tf(`reading_${a.reading}`),
        title: sources[a.evidenceId]?.title ?? a.evidenceId,
      }),
    );

  // Every finished report ends with what the committee must weigh (lib/report/weigh.ts). Each
  // point names the turn that made it by its step id, which the pass below writes as the turn's
  // name, linked ("— the negative rebuttal, on …"), not the agent's code ("— N2").
  if (view.status === 'succeeded' && view.report && !blind) {
    sections.push(
      weighSection({
        turns: view.turns,
        sources,
        flags: redFlags,
        checks,
        locale,
        factorLabel: ctx.factorLabel,
        speakerLabel: (agent, step) => (isProtocolId(view.protocol) && step.length > 1 ? step : agentLabel(agent, locale)),
        cite: ctx.cite,
      }),
    );
  }

  // The summaries say what the topics do not: a line that restates a topic's reading gives the item
  // it rests on and links to that topic (lib/report/summaries.ts), in the run's language.
  const prose: Locale = params.language === 'en' ? 'en' : 'ko';
  if (!blind) sections = summariesBeyondTopics(sections, translator(reportMessages, prose)('seeTopic'));
  // Step ids in the prose, in words a committee member reads (lib/report/turn-names.ts), in the
  // language of the prose: the run's output language, whatever the reader's interface. Each name
  // links to its turn in the run's transcript, on the page (the exports read the plain text).
  if (isProtocolId(view.protocol) && !blind) sections = plainSections(sections, turnSegments(getProtocol(view.protocol), prose, transcriptAnchors(view.turns)));

  // The transcript names its turns as the prose does (the blind copy keeps the ids its redactor
  // replaces: lib/eval/study-blind.ts): a heading says what the turn is, a question what it asks of.
  const protocolDef = isProtocolId(view.protocol) && !blind ? getProtocol(view.protocol) : null;
  const headings = protocolDef ? turnNames(protocolDef, locale) : null;
  const inWords = protocolDef ? plainTurnNames(protocolDef, prose) : (text: string) => text;
  const questionLine = (q: { id: string; targetClaimId: string; text: string }) => {
    if (!protocolDef) return `${q.id} → ${q.targetClaimId}: ${q.text}`;
    const n = /-q(\d+)$/.exec(q.id)?.[1];
    const asked = n ? (prose === 'ko' ? `질문 ${n}` : `Question ${n}`) : inWords(q.id);
    const target = inWords(q.targetClaimId);
    return `${asked} → ${prose === 'en' ? target.charAt(0).toLowerCase() + target.slice(1) : target}: ${inWords(q.text)}`;
  };
  const capital = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
  const teamLabel = (team: string) =>
    team === 'affirmative' ? t('teamAffirmative') : team === 'negative' ? t('teamNegative') : team === 'neutral' ? t('teamNeutral') : team;
  // A red-flag screening ran no step: its steps are not a transcript.
  const transcript: TranscriptTurn[] = (view.status === 'red_flag_screening' ? [] : view.turns).map((x) => ({
    step: x.step,
    // A side's turn by its name ("The negative rebuttal"); a neutral one by its act, beside its speaker ("Aggregation · aggregator").
    title: !headings?.get(x.step) ? x.step : x.team === 'neutral' ? capital(actLabel(x.act, locale)) : capital(headings.get(x.step)!),
    speaker: agentLabel(x.agent, locale),
    team: teamLabel(x.team),
    act: actLabel(x.act, locale),
    status: x.status,
    text:
      x.status === 'done'
        ? inWords(x.text)
        : x.status === 'failed'
          ? t('turnFailed', { error: x.error ?? '' })
          : x.status === 'running'
            ? t('turnRunning')
            : t('turnPending'),
    questions: x.status === 'done' ? x.questions.map(questionLine) : [],
    citations: x.status === 'done' ? ctx.cite(x.citations) : [],
    flags: mismatches.filter((m) => m.step === x.step).flatMap((m) => mismatchLines(m, 'transcriptLine')),
  }));

  return {
    locale,
    contentLanguage: contentLanguageOf(params),
    title: t('documentTitle', { company: shownName }),
    subtitle: t('subtitle'),
    companyName: shownName,
    runHref: `/runs/${encodeURIComponent(view.id)}`,
    protocol: view.protocol,
    protocolName: input.protocolName,
    asOf,
    status: view.status,
    header,
    metrics,
    notice,
    failedChecks,
    sourcesNote,
    redFlags,
    redFlagLabels: { heading: tf('heading'), intro: `${tf('intro')} ${tf('scopeRun', { date: asOf })}`, item: tf('item'), alsoIn: tf('alsoIn') },
    sections,
    checks,
    transcript,
    aiAssisted: blind ? null : aiAssistedLines({ protocolName: input.protocolName, provider: view.provider, model: view.model }, input.oversight, locale),
    humanOversight: blind ? null : humanOversightLines(input.oversight, locale),
    labels: {
      metrics: t('metrics'),
      checks: t('checks'),
      checkPassed: t('checkPassed'),
      checkFlagged: t('checkFlagged'),
      noChecks: t('noChecks'),
      transcript: t('transcript'),
      transcriptNote: t('transcriptNote'),
      step: t('step'),
      speaker: t('speaker'),
      team: t('team'),
      act: t('act'),
      citations: t('citations'),
      unverified: t('unverified'),
      unverifiedLong: t('unverifiedLong'),
      afterAsOf: translator(repairMessages, locale)('afterAsOf'),
      afterAsOfLong: translator(repairMessages, locale)('afterAsOfHint'),
      noCitations: t('noCitations'),
      changedInPool: t('changedInPool'),
      removedFromPool: t('removedFromPool'),
      notFrozen: t('notFrozen'),
      questionsLabel: t('questionsLabel'),
      reportSection: t('reportSection'),
      noReport: t('noReport'),
      pageOf: (n, total) => t('page', { n, total }),
    },
  };
}
