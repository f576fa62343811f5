import { Card, List, Table, Tag, Typography } from 'antd';
import { useHeartbeats, useReportMessages } from '../api/get-report-activity.ts';

/** For a report screen: its agents' last heart-beats and its progress messages, kept live by the connection. */
export function ReportActivity({ reportId }: { reportId: string }) {
  const heartbeats = useHeartbeats(reportId);
  const messages = useReportMessages(reportId);
  return (
    <Card title="Progress" size="small">
      <Table
        size="small"
        rowKey="agent_id"
        pagination={false}
        loading={heartbeats.isPending}
        dataSource={heartbeats.data ?? []}
        locale={{ emptyText: 'No agent has reported a heart-beat.' }}
        columns={[
          { title: 'Agent', dataIndex: 'agent_id' },
          { title: 'IP', dataIndex: 'ip', render: (ip: string | null) => ip ?? '—' },
          {
            title: 'Last heart-beat',
            dataIndex: 'date',
            render: (date: string, beat) => (
              <>
                {new Date(date).toLocaleString()}{' '}
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
        locale={{ emptyText: 'No progress messages yet.' }}
        renderItem={(message) => (
          <List.Item key={message.id}>
            <Typography.Text type="secondary">{new Date(message.date).toLocaleString()}</Typography.Text>{' '}
            {message.status && <Tag>{message.status}</Tag>} {message.title} {message.text}
          </List.Item>
        )}
      />
    </Card>
  );
}
