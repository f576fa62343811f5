import type { Message } from '@sextant/api';
import { useLocale, useTexts } from '../../lib/i18n.tsx';
import { useStatusLabel } from '../../lib/report-status-texts.ts';
import { messageTexts } from './texts.ts';

export type ProgressWording = {
  /** Status → its label in the reader's language. */
  label: (status: string) => string;
  /** `{name}` and `{label}`: the title of a report's progress message. */
  title: string;
  ready: string;
  queued: string;
};

/**
 * The report pipeline writes its progress messages in English as `<report name>: <step>` with a detail
 * text (git's output, counts, a failure's reason). For another language the title is rebuilt from the
 * report name and the status's own label; the fixed sentences are translated, details stay as written.
 */
export function progressText(
  message: Pick<Message, 'title' | 'text' | 'status' | 'message_type'>,
  wording: ProgressWording | null,
) {
  if (!wording || message.message_type !== 'REPORT_PROGRESS' || !message.status) {
    return { title: message.title || message.status || message.message_type, text: message.text };
  }
  const cut = message.title.lastIndexOf(': ');
  const name = cut > 0 ? message.title.slice(0, cut) : message.title;
  const label = wording.label(message.status);
  const title = wording.title.replace('{name}', name).replace('{label}', label);
  if (message.status === 'SUCCESS') return { title, text: wording.ready };
  if (message.status === 'QUEUED') return { title, text: wording.queued };
  return { title, text: message.text };
}

/** The wording for the current language, or null for English (the server's own words). */
export function useProgressWording(): ProgressWording | null {
  const { locale } = useLocale();
  const t = useTexts(messageTexts);
  const label = useStatusLabel();
  if (locale === 'en') return null;
  return { label, title: t.progressTitle, ready: t.reportReady, queued: t.reportQueued };
}
