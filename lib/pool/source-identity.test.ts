// The identity of a source link, on the link forms the real filings arrive in: the DART viewer
// link the connector writes (data/demo/evidence.jsonl, Taeyoung E&C's 채권은행 등의 관리절차 개시,
// 접수번호 20250217001661), the OpenDART API's original-document link, Tesla's FY2024 10-K on EDGAR
// (accession 0001628280-25-003063) as its primary document and as its index page.
import { describe, expect, it } from 'vitest';
import { sourceIdentity } from '@/lib/pool/source-identity';

describe('sourceIdentity', () => {
  it('names a DART filing by its receipt number, in the viewer and the OpenDART forms', () => {
    expect(sourceIdentity('https://dart.fss.or.kr/dsaf001/main.do?rcpNo=20250217001661')).toBe('dart:20250217001661');
    expect(sourceIdentity('https://opendart.fss.or.kr/api/document.xml?crtfc_key=KEY&rcept_no=20250217001661')).toBe('dart:20250217001661');
    expect(sourceIdentity('http://DART.fss.or.kr/report/viewer.do?dcmNo=9489546&RCPNO=20250217001661#toc')).toBe('dart:20250217001661');
    // Not a receipt number: 13 digits is some other link, compared as a link.
    expect(sourceIdentity('https://dart.fss.or.kr/dsaf001/main.do?rcpNo=2025021700166')).toBe('url:https://dart.fss.or.kr/dsaf001/main.do?rcpNo=2025021700166');
  });

  it('names an SEC filing by its accession number, with or without dashes', () => {
    const primary = 'https://www.sec.gov/Archives/edgar/data/1318605/000162828025003063/tsla-20241231.htm';
    const index = 'https://www.sec.gov/Archives/edgar/data/1318605/000162828025003063/0001628280-25-003063-index.htm';
    expect(sourceIdentity(primary)).toBe('sec:0001628280-25-003063');
    expect(sourceIdentity(index)).toBe('sec:0001628280-25-003063');
    expect(sourceIdentity('https://www.sec.gov/Archives/edgar/data/1318605/000162828025003063')).toBe('sec:0001628280-25-003063');
    // Another filing of the same company stays another.
    expect(sourceIdentity('https://www.sec.gov/Archives/edgar/data/1318605/000095017023001409/tsla-20221231.htm')).toBe('sec:0000950170-23-001409');
  });

  it('compares other links without scheme and host case, trailing slash, fragment or tracking parameters', () => {
    const url = 'https://finance.naver.com/item/news_read.naver?article_id=0004969677&office_id=009&code=005930';
    const expected = 'url:https://finance.naver.com/item/news_read.naver?article_id=0004969677&code=005930&office_id=009';
    expect(sourceIdentity(url)).toBe(expected);
    expect(
      sourceIdentity('HTTPS://Finance.Naver.com:443/item/news_read.naver/?office_id=009&utm_source=x&code=005930&article_id=0004969677&fbclid=abc#body'),
    ).toBe(expected);
    // The path keeps its case (servers tell paths apart), and a different article is a different source.
    expect(sourceIdentity('https://finance.naver.com/Item/news_read.naver?article_id=0004969677')).not.toBe(
      sourceIdentity('https://finance.naver.com/item/news_read.naver?article_id=0004969677'),
    );
    expect(sourceIdentity('https://finance.naver.com/item/news_read.naver?article_id=0004969678&office_id=009&code=005930')).not.toBe(expected);
    expect(sourceIdentity(' not a link ')).toBe('text:not a link');
  });
});
