import { describe, expect, it } from 'vitest';
import { amountScale, materialityOf, materialityScores, readMateriality, reportsCharge, statedAmount, type MaterialityInput } from '@/lib/pool/materiality';

const item = (over: Partial<MaterialityInput>): MaterialityInput => ({ category: 'news', title: 'Title', text: '', value: null, stale: false, ...over });

describe('statedAmount', () => {
  it('reads dollar, yuan and won amounts with their scale words, the largest one the item states', () => {
    expect(statedAmount(item({ text: 'a one-time income tax charge of $10.2 billion, net, and $1.5 million of fees' }))).toEqual({
      currency: 'USD',
      amount: 10.2e9,
    });
    expect(statedAmount(item({ value: 'RMB 14.08 billion' }))).toEqual({ currency: 'CNY', amount: 14.08e9 });
    expect(statedAmount(item({ title: 'US$ 345 million fee award' }))).toEqual({ currency: 'USD', amount: 345e6 });
    expect(statedAmount(item({ text: '연구개발비용 12조 1,779억원' }))).toEqual({ currency: 'KRW', amount: 12e12 });
    expect(statedAmount(item({ text: '과태료 386.3백만원' }))).toEqual({ currency: 'KRW', amount: 386.3e6 });
  });

  it('finds no amount in counts, percentages or dates', () => {
    expect(statedAmount(item({ text: 'Headcount 125,665 employees; 68% promoted internally; as of December 31, 2024' }))).toBeNull();
    expect(statedAmount(item({ text: '직원 117,904명, 평균근속연수 12.5년' }))).toBeNull();
  });
});

describe('materialityOf', () => {
  const score = (i: MaterialityInput, others: MaterialityInput[] = []) => materialityOf(i, amountScale([i, ...others].map(readMateriality)));

  it('counts an authority suing, a decision and freshness for a government antitrust suit', () => {
    const suit = item({
      category: 'legal_proceedings',
      title: 'U.S. Department of Justice antitrust suit',
      text: 'On March 21, 2024 the U.S. Department of Justice, joined by state attorneys general, filed a civil antitrust lawsuit alleging monopolization. The Company believes the case is without merit.',
    });
    expect(score(suit)).toMatchObject({ authority: 3, decision: 2, charge: 0, fresh: 2, total: 7, decisive: true });
  });

  it('counts a one-time charge and weighs its amount against the largest amount of the same currency', () => {
    const charge = item({ title: 'One-time income tax charge of $10.2 billion', text: 'The Company recorded a one-time income tax charge of $10.2 billion.' });
    const revenue = item({ title: 'Net sales of $391.0 billion', text: 'Total net sales were $391.0 billion.' });
    const parts = score(charge, [revenue]);
    expect(parts.charge).toBe(3);
    // 10.2 / 391 is about 1/38: 1 + log10(1/38) / 3 of the full 2.
    expect(parts.amount).toBeCloseTo(2 * (1 + Math.log10(10.2 / 391) / 3), 5);
    expect(score(revenue, [charge]).amount).toBe(2);
    expect(parts.total).toBeGreaterThan(score(revenue, [charge]).total);
  });

  it('reads no action, decision or charge in a sentence that only contemplates one', () => {
    const risk = item({
      category: 'risk_factor',
      title: 'Regulatory risk',
      text: 'The FTC could fine the Company, and we may record impairment charges if demand falls.',
    });
    expect(score(risk)).toMatchObject({ authority: 0, decision: 0, charge: 0, total: 2, decisive: false });
    expect(reportsCharge(risk)).toBe(false);
  });

  it('does not count a report filed with a regulator as a decision', () => {
    const index = item({ title: 'Form 8-K Item 5.02', text: 'Tesla, Inc. filed a current report on Form 8-K on 2022-09-28.' });
    expect(score(index).decision).toBe(0);
  });

  it('counts a red flag and leaves a stale item without its freshness', () => {
    const sanction = item({
      category: 'sanctions',
      title: '공정위 과징금 1,012억 17백만원',
      text: '공정거래위원회는 과징금 1,012억 17백만원을 부과하였다.',
      stale: true,
    });
    expect(score(sanction)).toMatchObject({ redFlag: 4, authority: 3, decision: 2, fresh: 0, decisive: false });
  });

  it('gives the same scores whatever order the items come in', () => {
    const list = [
      item({ title: 'A $5.00 billion commitment' }),
      item({ title: 'A $345 million award', text: 'The court awarded fees of $345 million.' }),
      item({ title: 'A $20 million grant', stale: true }),
    ];
    const forward = materialityScores(list);
    const backward = materialityScores([...list].reverse());
    expect(list.map((i) => backward.get(i))).toEqual(list.map((i) => forward.get(i)));
    expect(list.map((i) => forward.get(i))).toEqual([4, expect.closeTo(5.225899, 5), expect.closeTo(0.401373, 5)]);
  });
});
