import { describe, expect, it } from 'vitest';
import { progressText } from './progress-text.ts';

const zh = {
  label: (s: string) => ({ CLONING: '克隆代码中', SUCCESS: '成功', CLONE_FAIL: '克隆失败' })[s] ?? s,
  title: '{name}：{label}',
  ready: '报告已生成。',
  queued: '报告已排队。',
};
const progress = (status: string, title: string, text: string) => ({
  status,
  title,
  text,
  message_type: 'REPORT_PROGRESS',
});

describe('report progress in the reader language', () => {
  it('keeps English as the server wrote it', () => {
    expect(progressText(progress('SUCCESS', 'Nightly: done', 'The report is ready.'), null)).toEqual({
      title: 'Nightly: done',
      text: 'The report is ready.',
    });
  });

  it('rebuilds the title from the report name and the status label, keeping a name with a colon', () => {
    expect(
      progressText(progress('CLONING', 'Release: 1.2: Fetching the repository', 'git fetch /srv/repo'), zh),
    ).toEqual({
      title: 'Release: 1.2：克隆代码中',
      text: 'git fetch /srv/repo',
    });
    expect(progressText(progress('SUCCESS', 'Nightly: done', 'The report is ready.'), zh).text).toBe('报告已生成。');
    expect(progressText(progress('CLONE_FAIL', 'Nightly: CLONE_FAIL', 'fatal: repository not found'), zh)).toEqual({
      title: 'Nightly：克隆失败',
      text: 'fatal: repository not found',
    });
  });

  it('leaves other messages alone', () => {
    const notice = { status: null, title: 'Maintenance tonight', text: 'From 22:00.', message_type: 'NOTICE' };
    expect(progressText(notice, zh)).toEqual({ title: 'Maintenance tonight', text: 'From 22:00.' });
  });
});
