import { describe, expect, it } from 'vitest';
import { type RiskSearch, readRiskSearch, riskSourcePath, writeRiskSearch } from './url.ts';

describe('risk list URL', () => {
  const defaults: RiskSearch = { state: 'observing,pending' };

  it('restores every filter, the sort and the page from the link it wrote', () => {
    const search: RiskSearch = {
      state: 'judged',
      teamId: 'a4c1f1de-6d38-4d8a-9e55-0cbbf6c1b001',
      appId: 'a4c1f1de-6d38-4d8a-9e55-0cbbf6c1b002',
      projectId: 'a4c1f1de-6d38-4d8a-9e55-0cbbf6c1b003',
      version: 'v1.2',
      testType: 2,
      author: 'ada',
      kind: 'coverage',
      sortBy: 'dueDate',
      sortDesc: false,
      page: 3,
    };
    expect(readRiskSearch(writeRiskSearch(search, defaults), defaults)).toEqual(search);
  });

  it('leaves defaults out of the link and ignores values the API would refuse', () => {
    expect(writeRiskSearch({ ...defaults, page: 1, sortBy: 'severity', sortDesc: true }, defaults).toString()).toBe('');
    const read = readRiskSearch(new URLSearchParams('state=open&kind=bug&testType=3&sortBy=drop&page=-2'), defaults);
    expect(read).toEqual(defaults);
  });

  it('links a risk to its method in the source view, at its first line', () => {
    expect(riskSourcePath({ reportId: 'r 1', filePath: 'src/a b.ts', startLine: 12 })).toBe(
      '/codecoverage/r%201?file=src%2Fa%20b.ts&line=12',
    );
  });
});
