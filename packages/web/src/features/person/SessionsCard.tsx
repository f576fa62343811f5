import { NoDataSchema, PATHS, pathTo, type Session, SessionSchema } from '@sextant/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { useLocale, useTexts } from '../../lib/i18n.tsx';
import { api } from '../../lib/session.tsx';
import { sessionTexts } from './session-texts.ts';

const SESSIONS_KEY = ['me', 'sessions'] as const;

/** The user's sessions (sign-ins on their devices): where and when, and ending the others. */
export function SessionsCard() {
  const t = useTexts(sessionTexts);
  const { formatDate } = useLocale();
  const errorText = useErrorMessage();
  const { message } = App.useApp();
  const client = useQueryClient();
  const sessions = useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: () => api.get(PATHS.mySessions, SessionSchema.array()),
  });
  const done = (text: string) => {
    message.success(text);
    void client.invalidateQueries({ queryKey: SESSIONS_KEY });
  };
  const end = useMutation({
    mutationFn: (id: string) => api.delete(pathTo(PATHS.mySession, { id }), NoDataSchema),
    onSuccess: () => done(t.ended),
  });
  const endOthers = useMutation({
    mutationFn: () => api.post(PATHS.revokeOtherSessions, NoDataSchema),
    onSuccess: () => done(t.othersEnded),
  });
  const failure = end.error ?? endOthers.error ?? sessions.error;
  const others = (sessions.data ?? []).filter((s) => !s.current).length;

  return (
    <Card>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t.title}
        </Typography.Title>
        <Popconfirm title={t.confirmOthers} onConfirm={() => endOthers.mutate()} disabled={others === 0}>
          <Button danger disabled={others === 0} loading={endOthers.isPending}>
            {t.endOthers}
          </Button>
        </Popconfirm>
      </Space>
      <Typography.Paragraph type="secondary">{t.explain}</Typography.Paragraph>
      {failure && <Alert type="error" showIcon message={errorText(failure)} style={{ marginBottom: 16 }} />}
      <Table<Session>
        rowKey="id"
        size="small"
        loading={sessions.isLoading}
        dataSource={sessions.data ?? []}
        pagination={false}
        scroll={{ x: true }}
        columns={[
          {
            title: t.device,
            key: 'device',
            render: (_, s) => (
              <Space>
                <Typography.Text ellipsis style={{ maxWidth: 320 }} title={s.userAgent ?? undefined}>
                  {s.userAgent ?? t.unknown}
                </Typography.Text>
                {s.current && <Tag color="green">{t.current}</Tag>}
              </Space>
            ),
          },
          { title: t.ip, dataIndex: 'ip', render: (ip: string | null) => ip ?? t.unknown },
          { title: t.createdAt, dataIndex: 'createdAt', render: (v: string) => formatDate(v) },
          { title: t.lastUsedAt, dataIndex: 'lastUsedAt', render: (v: string) => formatDate(v) },
          {
            title: '',
            key: 'end',
            render: (_, s) =>
              s.current ? null : (
                <Popconfirm title={t.confirmEnd} onConfirm={() => end.mutate(s.id)}>
                  <Button size="small" danger loading={end.isPending && end.variables === s.id}>
                    {t.end}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
    </Card>
  );
}
