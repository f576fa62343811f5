import type { App } from '@sextant/api';

const UNITS: [number, string][] = [
  [86_400_000, 'd'],
  [3_600_000, 'h'],
  [60_000, 'min'],
  [1000, 's'],
];

export function timeAgo(iso: string, now = Date.now()): string {
  const elapsed = Math.max(0, now - Date.parse(iso));
  for (const [ms, unit] of UNITS) if (elapsed >= ms) return `${Math.floor(elapsed / ms)} ${unit} ago`;
  return 'just now';
}

/** The command that starts an agent for this app; the token is the app's ingestion token. */
export function agentCommand(app: Pick<App, 'name' | 'environments'>, origin: string): string {
  const env = app.environments[0] ?? 'test';
  return `npx sextant agent --server ${origin} --token <ingestion token> --app ${app.name} --env ${env} --watch 'target/site/jacoco/*.xml'`;
}
