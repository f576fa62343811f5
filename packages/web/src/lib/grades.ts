export type Tone = 'success' | 'warning' | 'danger';

/** Coverage grade (specification point 9): at or above excellent is green, at or above passing yellow. */
export function coverageTone(value: number, grades: { excellentGrade: number; passingGrade: number }): Tone {
  if (value >= grades.excellentGrade) return 'success';
  if (value >= grades.passingGrade) return 'warning';
  return 'danger';
}

/** Trace time colour (point 9): thresholds are the stored seconds times 1000, compared in milliseconds. */
export function traceTone(
  durationMs: number,
  rules: { trace_consuming_time_warn_threshold: number; trace_consuming_time_serious_threshold: number },
): Tone {
  if (durationMs < rules.trace_consuming_time_warn_threshold * 1000) return 'success';
  if (durationMs < rules.trace_consuming_time_serious_threshold * 1000) return 'warning';
  return 'danger';
}

export const TONE_COLORS: Record<Tone, string> = { success: '#28c76f', warning: '#ff9f43', danger: '#ea5455' };

/**
 * A fraction as a percentage, always in English notation.
 * @deprecated On screens use `useLocale().formatPercent` (lib/i18n.tsx), which follows the chosen language.
 */
export function percent(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  return `${(value * 100).toFixed(digits)}%`;
}
