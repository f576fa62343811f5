import type { Settings } from './settings.ts';

// Apart from the schema so the web app's first load does not pull zod.
export const DEFAULT_SETTINGS: Settings = {
  excellentGrade: 0.8,
  passingGrade: 0.6,
  licenseVersion: 'advanced',
  showJudgment: false,
  wsMaxHistoryLength: 10000,
  traceWarnThreshold: 1,
  traceSeriousThreshold: 3,
  traceRetentionDays: 14,
  zentaoUrl: '',
  traceViewerUrl: '',
};
