import { defineTexts, type SameKeys } from '../../../lib/i18n.tsx';

/** The source view: its header, legend, file tree, method badges and each line's hover text. */
export const sourceTexts = defineTexts({
  en: {
    backToReport: 'Report',
    noFiles: 'This report has no files with coverage.',
    chooseFile: 'Choose a file.',
    lines: 'lines',
    branches: 'branches',
    changedLines: 'changed lines',
    separator: ', ',
    legend: {
      covered: 'covered',
      uncovered: 'not covered',
      partial: 'branches partly covered',
      changed: 'changed line (gutter bar)',
      carried: 'not run on this build, covered on an older one (carried forward)',
    },
    changedFilesOnly: 'Changed files only',
    files: 'Files',
    package: 'package',
    sourceOf: 'Source of {path}',
    lineTooltip: 'Line {line}: {text}',
    keys: 'n / p: next / previous uncovered · N / P: changed · line number: link',
    hits: 'hits',
    method: {
      line: 'L',
      branch: 'B',
      hover: '{name}: lines {lines}, branches {branches}',
    },
    line: {
      notRun: 'Not run',
      runOnce: 'Run {hits} time',
      runMany: 'Run {hits} times',
      withBranches: '{hits}; {covered} of {total} branches',
      carried: '{text} — covered on an older build, unchanged since (carried forward)',
    },
  },
  zh: {
    backToReport: '报告',
    noFiles: '此报告没有带覆盖率的文件。',
    chooseFile: '请选择一个文件。',
    lines: '行覆盖率',
    branches: '分支覆盖率',
    changedLines: '增量行覆盖率',
    separator: '，',
    legend: {
      covered: '已覆盖',
      uncovered: '未覆盖',
      partial: '分支部分覆盖',
      changed: '变更行（左侧竖条）',
      carried: '本构建未执行，旧构建已覆盖（结转）',
    },
    changedFilesOnly: '仅看变更文件',
    files: '文件',
    package: '模块',
    sourceOf: '{path} 的源码',
    lineTooltip: '第 {line} 行：{text}',
    keys: 'n / p：下一处 / 上一处未覆盖 · N / P：变更 · 行号：链接',
    hits: '次数',
    method: {
      line: '行',
      branch: '分支',
      hover: '{name}：行覆盖率 {lines}，分支覆盖率 {branches}',
    },
    line: {
      notRun: '未执行',
      runOnce: '执行 {hits} 次',
      runMany: '执行 {hits} 次',
      withBranches: '{hits}；分支覆盖 {covered}/{total}',
      carried: '{text} —— 旧构建已覆盖，此后未改动（结转）',
    },
  },
});

export type LineWords = SameKeys<(typeof sourceTexts)['en']['line']>;
