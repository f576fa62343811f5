const UNITS: [number, Intl.RelativeTimeFormatUnit][] = [
  [86_400_000, 'day'],
  [3_600_000, 'hour'],
  [60_000, 'minute'],
  [1000, 'second'],
];

/** How long ago, in its largest whole unit, worded for the locale ("2 minutes ago", "2分钟前"). */
export function timeAgo(iso: string, locale: string, justNow: string, now = Date.now()): string {
  const elapsed = Math.max(0, now - Date.parse(iso));
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'always', style: 'short' });
  for (const [ms, unit] of UNITS) if (elapsed >= ms) return format.format(-Math.floor(elapsed / ms), unit);
  return justNow;
}
