import { fill, useTexts } from '../../../lib/i18n.tsx';
import { useStatusLabel } from '../../../lib/report-status-texts.ts';
import { reportTexts } from '../texts.ts';

export type StatusText = { label: string; tag: string; hint: string; alert: string };

/** A pipeline status worded for the current language: its label, what a tag shows and what its hover shows. */
export function useStatusText(): (status: string) => StatusText {
  const t = useTexts(reportTexts);
  const labelOf = useStatusLabel();
  return (status) => {
    const label = labelOf(status);
    const values = { status, label };
    return {
      label,
      tag: fill(t.statusTag, values),
      hint: fill(t.statusHint, values),
      alert: fill(t.failedAlert, values),
    };
  };
}
