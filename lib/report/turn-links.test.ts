// The report page links every turn it names to that turn in the run's transcript (issue 27, item
// 10): the rendered report (components/report/report-view.tsx) has a link for each name, whose
// anchor the run page's transcript (components/run/transcript.tsx) draws, and each summary line
// that points to a topic links to an anchor the report itself has. A study's blinded report and
// the exports, where such links cannot work, carry the names as plain words.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ReportView } from '@/components/report/report-view';
import { ReportBlocks } from '@/components/report/report-blocks';
import { Transcript } from '@/components/run/transcript';
import type { DatabaseHandle } from '@/lib/db/client';
import { testBackends } from '@/lib/db/test-db';
import { getProtocol } from '@/lib/debate/protocols';
import { PROTOCOLS } from '@/lib/domain/vocabulary';
import type { Language, ProtocolId } from '@/lib/domain/protocol';
import { renderMarkdown } from '@/lib/report/markdown';
import { buildReportDoc, type Block, type ReportInput } from '@/lib/report/model';
import { finishedRun, openReportTestDb } from '@/lib/report/test-runs';
import { turnNames, turnSegments, transcriptAnchors } from '@/lib/report/turn-names';
import { actLabel } from '@/lib/i18n/messages/debate-terms';

// The turn cards' comment threads post through server actions (next-auth), which need the Next
// server; the review is not what is tested here, and the cards draw no thread without one.
vi.mock('@/components/review/turn-comments', () => ({ TurnComments: () => null }));

const decode = (html: string) =>
  html
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** Every link of the markup: its target and its text. */
const linksOf = (html: string) => [...html.matchAll(/<a [^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/g)].map((m) => ({ href: decode(m[1]), text: decode(m[2]) }));
const idsOf = (html: string) => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => decode(m[1])));

const transcriptHtml = (input: ReportInput) =>
  renderToStaticMarkup(createElement(Transcript, { turns: input.view.turns, runStatus: input.view.status, evidence: {} }));

describe('turnSegments', () => {
  const anchors = { steps: new Set(['D1', 'D2', 'D7']), claims: new Set(['D1-c2']), questions: new Set(['D2-q3']) };
  it('splits the prose into words and links, to the claim or question when the transcript draws it, else to the turn', () => {
    const split = turnSegments(getProtocol('kpd-mads'), 'en', anchors);
    expect(split('D7 answered D1-c2; D2-q3 and D1-c9 stay open; D5 never ran.')).toEqual([
      { text: 'The negative rebuttal', to: 'turn', anchor: 'turn-D7' },
      ' answered ',
      { text: 'claim 2 of the affirmative constructive', to: 'turn', anchor: 'claim-D1-c2' },
      '; ',
      { text: 'question 3 of the first negative cross-examination', to: 'turn', anchor: 'question-D2-q3' },
      ' and ',
      // A claim the transcript does not have links to its turn; a turn it does not have is words only.
      { text: 'claim 9 of the affirmative constructive', to: 'turn', anchor: 'turn-D1' },
      ' stay open; the affirmative rebuttal never ran.',
    ]);
  });

  it('keeps a Korean particle outside the link, in the form that agrees with the name', () => {
    const split = turnSegments(getProtocol('kpd-mads'), 'ko', anchors);
    expect(split('D7이 반박했다.')).toEqual([{ text: '반대 측 반론', to: 'turn', anchor: 'turn-D7' }, '이 반박했다.']);
  });

  it('without anchors, gives the words only', () => {
    expect(turnSegments(getProtocol('kpd-mads'), 'en')('As D7 answered.')).toEqual(['As the negative rebuttal answered.']);
  });
});

describe.each(testBackends())('turn names in the rendered report link into the transcript (%s)', (backend) => {
  let handle: DatabaseHandle;
  const runs = new Map<string, ReportInput>();
  const key = (p: ProtocolId, c: string, l: Language) => `${p}/${c}/${l}`;
  beforeAll(async () => {
    handle = await openReportTestDb(backend);
    for (const p of PROTOCOLS)
      for (const l of ['en', 'ko'] as const) runs.set(key(p, 'samsung-electronics', l), await finishedRun(handle, p, 'samsung-electronics', l));
    runs.set(key('kpd-mads', 'tesla', 'en'), await finishedRun(handle, 'kpd-mads', 'tesla', 'en'));
  }, 240_000);
  afterAll(() => handle?.close());

  it('KPD-MADS: each turn it names is a link to that turn in the run page’s transcript, and the anchor is there', () => {
    for (const k of [key('kpd-mads', 'samsung-electronics', 'en'), key('kpd-mads', 'samsung-electronics', 'ko'), key('kpd-mads', 'tesla', 'en')]) {
      const input = runs.get(k)!;
      const language = k.endsWith('/en') ? 'en' : 'ko';
      const doc = buildReportDoc(input, 'en');
      const html = renderToStaticMarkup(createElement(ReportView, { doc }));
      const base = `/runs/${input.view.id}#`;
      const turnLinks = linksOf(html).filter((l) => l.href.startsWith(base));
      expect(turnLinks.length, k).toBeGreaterThan(5);
      // The names are the turns' own, in the run's language, and each target is drawn by the transcript.
      const names = [...turnNames(getProtocol('kpd-mads'), language).values()];
      const transcriptIds = idsOf(transcriptHtml(input));
      for (const link of turnLinks) {
        expect(
          names.some((n) => link.text.toLowerCase().includes(n.toLowerCase())),
          `${k}: ${link.text}`,
        ).toBe(true);
        expect(transcriptIds.has(link.href.slice(base.length)), `${k}: ${link.href}`).toBe(true);
      }
      // "the negative rebuttal" (D7) is named in the topics and links to its card.
      const rebuttal = turnNames(getProtocol('kpd-mads'), language).get('D7')!;
      expect(turnLinks.filter((l) => l.href === `${base}turn-D7` && l.text.toLowerCase() === rebuttal.toLowerCase()).length, k).toBeGreaterThan(0);
      expect(transcriptIds.has('turn-D7')).toBe(true);
      // Samsung's affirmative closing answers a question by its number: the link goes to that question.
      if (k === key('kpd-mads', 'samsung-electronics', 'en')) expect(turnLinks.filter((l) => l.href.startsWith(`${base}question-`)).length).toBeGreaterThan(0);
      // The points the committee must weigh name the turn that made each, not the agent's code ("— N2").
      const weigh = doc.sections.find((s) => s.id === 'weigh')!;
      const points = weigh.blocks.flatMap((b) => (b.kind === 'group' ? b.blocks : [])).flatMap((b) => (b.kind === 'list' ? b.items : []));
      expect(
        points.filter((p) => /— [AN]\d\b/.test(p)),
        k,
      ).toEqual([]);
      expect(
        linksOf(
          renderToStaticMarkup(createElement(ReportBlocks, { blocks: weigh.blocks, labels: doc.labels, level: 3, lang: language, runHref: doc.runHref })),
        ).filter((l) => l.href.startsWith(base)).length,
        k,
      ).toBeGreaterThan(0);
      // Each summary line's pointer lands on a topic of this page.
      const pageIds = idsOf(html);
      const topicLinks = linksOf(html).filter((l) => l.href.startsWith('#topic-'));
      expect(topicLinks.length, k).toBeGreaterThan(0);
      for (const link of topicLinks) expect(pageIds.has(link.href.slice(1)), link.href).toBe(true);
    }
  });

  it.each(PROTOCOLS)('%s: every link to a turn from the prose has its anchor in the transcript, in both languages', (protocol) => {
    for (const language of ['en', 'ko'] as const) {
      const input = runs.get(key(protocol, 'samsung-electronics', language))!;
      const doc = buildReportDoc(input, language);
      const html = renderToStaticMarkup(createElement(ReportView, { doc }));
      const base = `/runs/${input.view.id}#`;
      const transcriptIds = idsOf(transcriptHtml(input));
      for (const link of linksOf(html).filter((l) => l.href.startsWith(base)))
        expect(transcriptIds.has(link.href.slice(base.length)), `${protocol} ${language}: ${link.href}`).toBe(true);
      // The anchors a name may link to are exactly those the transcript draws.
      const anchors = transcriptAnchors(input.view.turns);
      for (const step of anchors.steps) expect(transcriptIds.has(`turn-${step}`)).toBe(true);
      for (const claim of anchors.claims) expect(transcriptIds.has(`claim-${claim}`)).toBe(true);
      for (const question of anchors.questions) expect(transcriptIds.has(`question-${question}`)).toBe(true);
    }
  });

  it('a blinded report has no links and no pieces, and the exports carry the names as words', () => {
    const input = runs.get(key('kpd-mads', 'samsung-electronics', 'en'))!;
    const blind = buildReportDoc(input, 'en', { blind: true });
    const pieces = (b: Block): boolean =>
      ('parts' in b && b.parts !== undefined) ||
      (b.kind === 'fields' && b.items.some((f) => f.parts)) ||
      (b.kind === 'group' && (b.anchor !== undefined || b.blocks.some(pieces)));
    expect(blind.sections.some((s) => s.blocks.some(pieces))).toBe(false);
    const blocks = blind.sections.flatMap((s) => s.blocks);
    expect(
      linksOf(renderToStaticMarkup(createElement(ReportBlocks, { blocks, labels: blind.labels, level: 3, lang: 'en' }))).filter(
        (l) => !/^https?:/.test(l.href),
      ),
    ).toEqual([]);

    const doc = buildReportDoc(input, 'en');
    const md = renderMarkdown(doc);
    expect(md).not.toContain('/runs/');
    expect(md).not.toContain('#topic-');
    expect(md).toContain(turnNames(getProtocol('kpd-mads'), 'en').get('D7')!);
  });

  it.each(PROTOCOLS)('%s: the transcript appendix names its turns and the claims its questions aim at, in both languages', (protocol) => {
    for (const language of ['en', 'ko'] as const) {
      const input = runs.get(key(protocol, 'samsung-electronics', language))!;
      const doc = buildReportDoc(input, language);
      const names = turnNames(getProtocol(protocol), language);
      const md = renderMarkdown(doc);
      const appendix = md.slice(md.indexOf(`## ${doc.labels.transcript}`));
      const headings = appendix.split('\n').filter((l) => l.startsWith('### '));
      expect(headings.length, `${protocol} ${language}`).toBe(doc.transcript.length);
      for (const [i, turn] of doc.transcript.entries()) {
        // A side's turn by its name; a neutral one by its act, beside its speaker.
        const def = getProtocol(protocol).steps.find((s) => s.id === turn.step)!;
        const name = def.team === 'neutral' ? actLabel(def.act, language) : names.get(turn.step)!;
        expect(headings[i].toLowerCase(), `${protocol} ${language}`).toContain(name.toLowerCase());
        expect(headings[i]).not.toContain(` ${turn.step} `);
        expect(headings[i].startsWith(`### ${turn.step} `)).toBe(false);
      }
      // No step id, alone or with a claim or question number, in the appendix's words.
      const ids = getProtocol(protocol)
        .steps.map((s) => s.id)
        .filter((id) => id.length > 1);
      const idPattern = new RegExp(`(?<![A-Za-z0-9_-])(${ids.map((id) => id.replace(/-/g, '\\-')).join('|')})(?:-[cq]\\d+)?(?![A-Za-z0-9_-])`);
      const words = appendix.split('\n').filter((l) => !/^\d+\. \d{4}-\d{2}-\d{2} — /.test(l));
      expect(
        words.filter((l) => idPattern.test(l)),
        `${protocol} ${language}`,
      ).toEqual([]);
    }
  });
});
