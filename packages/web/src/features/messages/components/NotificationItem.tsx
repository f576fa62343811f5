import type { Message } from '@sextant/api';
import { Button, Space, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { useLocale, useTexts } from '../../../lib/i18n.tsx';
import { progressText, useProgressWording } from '../progress-text.ts';
import { messageTexts } from '../texts.ts';
import { reportPath } from '../url.ts';

type Props = { message: Message; onRead: () => void; onHide: () => void; onOpen: () => void };

function statusColor(status: string | null | undefined): string {
  if (status === 'SUCCESS') return 'success';
  return status?.endsWith('FAIL') ? 'error' : 'default';
}

export function NotificationItem({ message, onRead, onHide, onOpen }: Props) {
  const t = useTexts(messageTexts);
  const { formatDate } = useLocale();
  const { title, text } = progressText(message, useProgressWording());
  return (
    <li className={`notification-item${message.readed ? ' is-read' : ''}`} aria-label={title}>
      <Space orientation="vertical" size={2} style={{ width: '100%' }}>
        <Space size={6} wrap>
          {!message.readed && <Tag color="blue">{t.new}</Tag>}
          <Typography.Text strong={!message.readed}>
            {message.report_id ? (
              <Link to={reportPath(message.report_id)} onClick={onOpen}>
                {title}
              </Link>
            ) : (
              title
            )}
          </Typography.Text>
          {message.status && <Tag color={statusColor(message.status)}>{message.status}</Tag>}
        </Space>
        {text && <Typography.Text type="secondary">{text}</Typography.Text>}
        <Space size={4}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {formatDate(message.date)}
          </Typography.Text>
          {!message.readed && (
            <Button size="small" type="link" onClick={onRead}>
              {t.markRead}
            </Button>
          )}
          <Button size="small" type="link" onClick={onHide}>
            {t.hide}
          </Button>
        </Space>
      </Space>
    </li>
  );
}
