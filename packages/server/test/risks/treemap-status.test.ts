import { describe, expect, it } from 'vitest';
import type { ChangedMethod } from '../../src/modules/reports/index.ts';
import { treemapStatus } from '../../src/modules/risks/treemap.ts';

const method = (over: Partial<ChangedMethod>): ChangedMethod => ({
  className: 'demo.A',
  name: 'run()V',
  filePath: 'A.java',
  startLine: 1,
  changeStatus: 'modified',
  changedLines: 3,
  lineCovered: 0,
  lineTotal: 4,
  ...over,
});

describe('the treemap colour of a changed method', () => {
  it('is covered at the passing grade, else changed or new by how the method changed', () => {
    expect(treemapStatus(method({ lineCovered: 3 }), 0.6)).toBe('covered');
    expect(treemapStatus(method({ lineCovered: 2 }), 0.6)).toBe('changed-uncovered');
    expect(treemapStatus(method({ lineCovered: 2, changeStatus: 'added' }), 0.6)).toBe('new-uncovered');
    expect(treemapStatus(method({ lineCovered: 2 }), 0.5)).toBe('covered');
  });
  it('counts a method without coverable lines by whether it ran', () => {
    expect(treemapStatus(method({ lineTotal: 0, lineCovered: 0, changeStatus: 'added' }), 0.6)).toBe('new-uncovered');
    expect(treemapStatus(method({ lineTotal: 0, lineCovered: 1 }), 0.6)).toBe('covered');
  });
});
