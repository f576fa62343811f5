import { describe, expect, it } from 'vitest';
import { timeAgo } from './agent-text.ts';

describe('agents panel: time since the last heart-beat', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  it('counts in its largest whole unit', () => {
    expect(timeAgo('2026-11-23T12:00:00Z', 'en', 'just now', now)).toBe('just now');
    expect(timeAgo('2026-11-23T11:59:28Z', 'en', 'just now', now)).toBe('32 sec. ago');
    expect(timeAgo('2026-11-23T11:57:01Z', 'en', 'just now', now)).toBe('2 min. ago');
    expect(timeAgo('2026-11-23T07:00:00Z', 'en', 'just now', now)).toBe('5 hr. ago');
    expect(timeAgo('2026-11-20T12:00:00Z', 'en', 'just now', now)).toBe('3 days ago');
    expect(timeAgo('2026-11-23T12:00:05Z', 'en', 'just now', now), 'a clock ahead of ours').toBe('just now');
  });
  it('words it for Chinese', () => {
    expect(timeAgo('2026-11-23T11:57:01Z', 'zh-CN', '刚刚', now)).toBe('2分钟前');
  });
});
