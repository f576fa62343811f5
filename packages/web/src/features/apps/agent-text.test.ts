import { describe, expect, it } from 'vitest';
import { agentCommand, timeAgo } from './agent-text.ts';

describe('agents panel texts', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  it('says how long ago a heart-beat came, in its largest whole unit', () => {
    expect(timeAgo('2026-11-23T12:00:00Z', now)).toBe('just now');
    expect(timeAgo('2026-11-23T11:59:28Z', now)).toBe('32 s ago');
    expect(timeAgo('2026-11-23T11:57:01Z', now)).toBe('2 min ago');
    expect(timeAgo('2026-11-23T07:00:00Z', now)).toBe('5 h ago');
    expect(timeAgo('2026-11-20T12:00:00Z', now)).toBe('3 d ago');
    expect(timeAgo('2026-11-23T12:00:05Z', now), 'a clock ahead of ours').toBe('just now');
  });
  it("shows the exact agent command with the app's first environment", () => {
    expect(agentCommand({ name: 'checkout', environments: ['staging', 'test'] }, 'https://sextant.example')).toBe(
      "npx sextant agent --server https://sextant.example --token <ingestion token> --app checkout --env staging --watch 'target/site/jacoco/*.xml'",
    );
    expect(agentCommand({ name: 'web', environments: [] }, 'http://h:3000')).toContain('--env test');
  });
});
