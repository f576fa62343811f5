import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Empty, Popover, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { fill, useTexts } from '../../../lib/i18n.tsx';
import { useNotifications } from '../api/get-notifications.ts';
import { useUpdateNotifications } from '../api/update-notifications.ts';
import { messageTexts } from '../texts.ts';
import { NotificationItem } from './NotificationItem.tsx';

/** The bell: unread count, the newest notifications (unread first), read one, read all, hide. */
export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const t = useTexts(messageTexts);
  const notifications = useNotifications();
  const update = useUpdateNotifications();
  const unread = notifications.data?.unread ?? 0;
  const items = notifications.data?.items ?? [];

  const list = (
    <div className="notification-panel" style={{ width: 360 }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Text strong>{t.notifications}</Typography.Text>
        <Button
          size="small"
          type="link"
          disabled={unread === 0 || update.isPending}
          onClick={() => update.mutate({ kind: 'readAll' })}
        >
          {t.markAllRead}
        </Button>
      </Space>
      {notifications.isPending ? (
        <Spin />
      ) : items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t.none} />
      ) : (
        <ul
          className="notification-list"
          style={{ listStyle: 'none', padding: 0, margin: 0, maxHeight: 420, overflowY: 'auto' }}
        >
          {items.map((message) => (
            <NotificationItem
              key={message.id}
              message={message}
              onRead={() => update.mutate({ kind: 'read', id: message.id })}
              onHide={() => update.mutate({ kind: 'hide', id: message.id })}
              onOpen={() => {
                setOpen(false);
                if (!message.readed) update.mutate({ kind: 'read', id: message.id });
              }}
            />
          ))}
        </ul>
      )}
    </div>
  );

  return (
    <Popover content={list} trigger="click" placement="bottomRight" open={open} onOpenChange={setOpen}>
      <Button type="text" aria-label={fill(t.bellLabel, { unread })}>
        <Badge count={unread} size="small" overflowCount={99}>
          <BellOutlined style={{ fontSize: 18 }} />
        </Badge>
      </Button>
    </Popover>
  );
}
