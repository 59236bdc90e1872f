import { describe, expect, it } from 'vitest';
import { applyRules, dateWindow, validateOptions } from './apply-rules';
import { WebSearchError } from './errors';
import type { WebResult } from './types';

const NOW = new Date('2024-06-15T12:00:00Z');

function result(url: string, publishedDate: string | null = '2024-06-01', title = url): WebResult {
  return { title, url, snippet: '', publishedDate, sourceName: 'x', provider: 'serpapi', retrievedAt: NOW };
}

describe('applyRules', () => {
  it('returns at most maxResults, in rank order', () => {
    const results = [1, 2, 3, 4, 5].map((i) => result(`https://a.example/${i}`));
    expect(applyRules(results, { maxResults: 3 }, NOW).map((r) => r.url)).toEqual(['https://a.example/1', 'https://a.example/2', 'https://a.example/3']);
  });

  it('drops results without a usable http(s) URL before counting', () => {
    const results = [
      result(''),
      result('ftp://files.example/report.pdf'),
      result('javascript:alert(1)'),
      result('/relative/path'),
      result('not a url'),
      result('https://ok.example/1'),
      result('http://ok.example/2'),
    ];
    expect(applyRules(results, { maxResults: 2 }, NOW).map((r) => r.url)).toEqual(['https://ok.example/1', 'http://ok.example/2']);
  });

  it('drops anything dated after the as-of date and keeps the as-of day itself', () => {
    const results = [
      result('https://a.example/late', '2024-04-01'),
      result('https://a.example/on', '2024-03-31'),
      result('https://a.example/early', '2024-03-10'),
    ];
    expect(applyRules(results, { maxResults: 10, asOf: '2024-03-31' }, NOW).map((r) => r.url)).toEqual(['https://a.example/on', 'https://a.example/early']);
  });

  it('drops results older than as-of − recencyDays', () => {
    const results = [
      result('https://a.example/old', '2024-02-29'),
      result('https://a.example/edge', '2024-03-01'),
      result('https://a.example/new', '2024-03-20'),
    ];
    expect(applyRules(results, { maxResults: 10, asOf: '2024-03-31', recencyDays: 30 }, NOW).map((r) => r.url)).toEqual([
      'https://a.example/edge',
      'https://a.example/new',
    ]);
  });

  it('counts the recency window back from the retrieval day when there is no as-of date', () => {
    const results = [result('https://a.example/old', '2024-06-07'), result('https://a.example/new', '2024-06-08')];
    expect(applyRules(results, { maxResults: 10, recencyDays: 7 }, NOW).map((r) => r.url)).toEqual(['https://a.example/new']);
  });

  it('keeps undated results, flagged by publishedDate null', () => {
    const kept = applyRules([result('https://a.example/undated', null)], { maxResults: 10, asOf: '2024-03-31', recencyDays: 30 }, NOW);
    expect(kept).toHaveLength(1);
    expect(kept[0].publishedDate).toBeNull();
  });

  it('dedupes by URL, ignoring fragment, www., trailing slash and utm_ parameters; the first copy wins', () => {
    const results = [
      result('https://www.news.example/story/?id=7&utm_source=x', '2024-06-01', 'first'),
      result('https://news.example/story?id=7#comments', '2024-06-01', 'second'),
      result('https://news.example/story?id=8', '2024-06-01', 'third'),
    ];
    expect(applyRules(results, { maxResults: 10 }, NOW).map((r) => r.title)).toEqual(['first', 'third']);
  });
});

describe('options', () => {
  it('computes the window from as-of and recency', () => {
    expect(dateWindow({ maxResults: 1, asOf: '2024-03-31', recencyDays: 30 }, NOW)).toEqual({ from: '2024-03-01', to: '2024-03-31' });
    expect(dateWindow({ maxResults: 1, recencyDays: 7 }, NOW)).toEqual({ from: '2024-06-08', to: null });
    expect(dateWindow({ maxResults: 1 }, NOW)).toEqual({ from: null, to: null });
  });

  it.each([
    { maxResults: 0 },
    { maxResults: 2.5 },
    { maxResults: 3, recencyDays: -1 },
    { maxResults: 3, asOf: '31/03/2024' },
    { maxResults: 3, asOf: '2024-02-30' },
  ])('rejects %j', (opts) => {
    expect(() => validateOptions(opts)).toThrow(WebSearchError);
  });
});
