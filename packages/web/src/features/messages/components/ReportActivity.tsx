import { Card, List, Table, Tag, Typography } from 'antd';
import { useLocale, useTexts } from '../../../lib/i18n.tsx';
import { useHeartbeats, useReportMessages } from '../api/get-report-activity.ts';
import { progressText, useProgressWording } from '../progress-text.ts';
import { messageTexts } from '../texts.ts';

/** For a report screen: its agents' last heart-beats and its progress messages, kept live by the connection. */
export function ReportActivity({ reportId }: { reportId: string }) {
  const t = useTexts(messageTexts);
  const { formatDate } = useLocale();
  const wording = useProgressWording();
  const heartbeats = useHeartbeats(reportId);
  const messages = useReportMessages(reportId);
  return (
    <Card title={t.progress} size="small">
      <Table
        size="small"
        rowKey="agent_id"
        pagination={false}
        loading={heartbeats.isPending}
        dataSource={heartbeats.data ?? []}
        locale={{ emptyText: t.noHeartbeat }}
        columns={[
          { title: t.agent, dataIndex: 'agent_id' },
          { title: t.ip, dataIndex: 'ip', render: (ip: string | null) => ip ?? '—' },
          {
            title: t.lastHeartbeat,
            dataIndex: 'date',
            render: (date: string, beat) => (
              <>
                {formatDate(date)}{' '}
                <Tag color={beat.status === 'HEART_BEAT_DONE' ? 'success' : 'error'}>{beat.status}</Tag>
              </>
            ),
          },
        ]}
      />
      <List
        size="small"
        loading={messages.isPending}
        dataSource={messages.data?.items ?? []}
        locale={{ emptyText: t.noProgress }}
        renderItem={(message) => (
          <List.Item key={message.id}>
            <Typography.Text type="secondary">{formatDate(message.date)}</Typography.Text>{' '}
            {message.status && <Tag>{message.status}</Tag>} {progressText(message, wording).title}{' '}
            {progressText(message, wording).text}
          </List.Item>
        )}
      />
    </Card>
  );
}
