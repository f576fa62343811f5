import type { Message } from '@sextant/api';
import { Button, Space, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { reportPath } from '../url.ts';

type Props = { message: Message; onRead: () => void; onHide: () => void; onOpen: () => void };

function statusColor(status: string | null | undefined): string {
  if (status === 'SUCCESS') return 'success';
  return status?.endsWith('FAIL') ? 'error' : 'default';
}

export function NotificationItem({ message, onRead, onHide, onOpen }: Props) {
  const title = message.title || message.status || message.message_type;
  return (
    <li className={`notification-item${message.readed ? ' is-read' : ''}`} aria-label={title}>
      <Space orientation="vertical" size={2} style={{ width: '100%' }}>
        <Space size={6} wrap>
          {!message.readed && <Tag color="blue">New</Tag>}
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
        {message.text && <Typography.Text type="secondary">{message.text}</Typography.Text>}
        <Space size={4}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {new Date(message.date).toLocaleString()}
          </Typography.Text>
          {!message.readed && (
            <Button size="small" type="link" onClick={onRead}>
              Mark read
            </Button>
          )}
          <Button size="small" type="link" onClick={onHide}>
            Hide
          </Button>
        </Space>
      </Space>
    </li>
  );
}
