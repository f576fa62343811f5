import type { Report } from '@sextant/api';
import { Alert, Steps } from 'antd';
import { useTexts } from '../../../lib/i18n.tsx';
import { reportTexts } from '../texts.ts';
import { isFailure, PIPELINE_STEPS, stepIndex } from './report-status.ts';
import { useStatusText } from './useStatusText.ts';

/** The pipeline's steps for one report, as far as its last status says (fed live by the screen). */
export function ReportProgress({ report, notes }: { report: Report; notes: Record<string, string> }) {
  const t = useTexts(reportTexts);
  const status = useStatusText()(report.status);
  const current = stepIndex(report.status);
  const failed = isFailure(report.status);
  const done = report.status === 'SUCCESS';
  return (
    <>
      <Steps
        size="small"
        direction="vertical"
        current={done ? PIPELINE_STEPS.length : current}
        status={failed ? 'error' : done ? 'finish' : 'process'}
        items={PIPELINE_STEPS.map((step, i) => ({
          title: t.steps[step.status],
          description: notes[step.status] ?? (failed && i === current ? status.tag : undefined),
          status: done || i < current ? 'finish' : i === current ? (failed ? 'error' : 'process') : 'wait',
        }))}
      />
      {failed && <Alert type="error" showIcon message={status.alert} description={report.errMsg ?? undefined} />}
      {done && <Alert type="success" showIcon message={t.ready} />}
    </>
  );
}
