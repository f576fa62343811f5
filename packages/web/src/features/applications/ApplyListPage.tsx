import {
  APPLICATION_STATUSES,
  type Application,
  ApplicationSchema,
  ApprovalSchema,
  NoDataSchema,
  PATHS,
  pageSchema,
  pathTo,
  RoleSchema,
} from '@sextant/api';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, Modal, Segmented, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { ApiError } from '../../lib/api-client.ts';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { fill, useLocale, useTexts } from '../../lib/i18n.tsx';
import { usePermission } from '../../lib/permissions.ts';
import { api } from '../../lib/session.tsx';
import { tableLoading } from '../../lib/table-loading.ts';
import { applicationTexts } from './texts.ts';

type Decision =
  | { kind: 'approve'; request: Application; role?: string }
  | { kind: 'reject'; request: Application; reason: string };
type Approval = { userId: string; resetLink: { url: string; expiresAt: string } };
const STATUS_COLORS = { pending: 'gold', approved: 'green', rejected: 'red' } as const;

/** Access requests: approve with a role (the applicant gets a reset link) or reject with a reason. */
export default function ApplyListPage() {
  const { message } = App.useApp();
  const client = useQueryClient();
  const t = useTexts(applicationTexts);
  const { formatDate } = useLocale();
  const errorMessage = useErrorMessage();
  const mayDecide = usePermission('update', 'Apply');
  const [status, setStatus] = useState<Application['status']>('pending');
  const [page, setPage] = useState({ page: 1, perPage: 10 });
  const [decision, setDecision] = useState<Decision | null>(null);
  const [approval, setApproval] = useState<(Approval & { username: string }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  const list = useQuery({
    queryKey: [PATHS.applications, status, page],
    queryFn: () => api.get(PATHS.applications, pageSchema(ApplicationSchema), { query: { status, ...page } }),
    placeholderData: keepPreviousData,
  });
  const roles = useQuery({
    queryKey: [PATHS.roles],
    queryFn: () => api.get(PATHS.roles, RoleSchema.array()),
    enabled: mayDecide,
  });

  const decide = useMutation({
    mutationFn: (d: Decision) =>
      d.kind === 'approve'
        ? api.post(pathTo(PATHS.approveApplication, { id: d.request.id }), ApprovalSchema, { role: d.role })
        : api.post(pathTo(PATHS.rejectApplication, { id: d.request.id }), NoDataSchema, { reason: d.reason }),
    onSuccess: (answer, d) => {
      setDecision(null);
      if (d.kind === 'approve' && answer) setApproval({ ...(answer as Approval), username: d.request.username });
      else message.success(t.rejected);
      void client.invalidateQueries({ queryKey: [PATHS.applications] });
    },
    onError: (e) => setError(e instanceof ApiError ? errorMessage(e) : t.saveFailed),
  });

  const open = (d: Decision) => {
    setError(null);
    setDecision(d);
  };
  const ready = decision && (decision.kind === 'approve' ? Boolean(decision.role) : decision.reason.trim().length > 0);
  return (
    <Card>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t.title}
        </Typography.Title>
        <Segmented
          value={status}
          options={APPLICATION_STATUSES.map((s) => ({ value: s, label: t.statuses[s] }))}
          onChange={(value) => {
            setStatus(value as Application['status']);
            setPage((p) => ({ ...p, page: 1 }));
          }}
        />
      </Space>
      {list.error && <Alert type="error" showIcon message={errorMessage(list.error)} />}
      <Table<Application>
        rowKey="id"
        loading={tableLoading(list)}
        dataSource={list.data?.items ?? []}
        locale={{ emptyText: fill(t.none, { status: t.statuses[status] }) }}
        pagination={{
          current: page.page,
          pageSize: page.perPage,
          total: list.data?.total ?? 0,
          onChange: (p, perPage) => setPage({ page: p, perPage }),
        }}
        columns={[
          { title: t.username, dataIndex: 'username' },
          { title: t.email, dataIndex: 'email' },
          { title: t.wantedRole, dataIndex: 'wantedRole', render: (r: string | null) => r ?? '—' },
          { title: t.reason, dataIndex: 'reason', ellipsis: true },
          { title: t.asked, dataIndex: 'createdAt', render: (d: string) => formatDate(d) },
          {
            title: t.status,
            dataIndex: 'status',
            render: (s: Application['status'], row) => (
              <Space direction="vertical" size={0}>
                <Tag color={STATUS_COLORS[s]}>{t.statuses[s]}</Tag>
                {row.decisionNote && <Typography.Text type="secondary">{row.decisionNote}</Typography.Text>}
              </Space>
            ),
          },
          ...(mayDecide && status === 'pending'
            ? [
                {
                  title: t.decide,
                  key: 'decide',
                  render: (_: unknown, row: Application) => (
                    <Space>
                      <Button
                        size="small"
                        type="primary"
                        onClick={() => open({ kind: 'approve', request: row, role: row.wantedRole ?? undefined })}
                      >
                        {t.approve}
                      </Button>
                      <Button size="small" danger onClick={() => open({ kind: 'reject', request: row, reason: '' })}>
                        {t.reject}
                      </Button>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      <Modal
        open={decision !== null}
        title={
          decision
            ? fill(decision.kind === 'approve' ? t.approveUser : t.rejectUser, { username: decision.request.username })
            : ''
        }
        okText={decision?.kind === 'approve' ? t.approve : t.reject}
        okButtonProps={{ disabled: !ready, danger: decision?.kind === 'reject' }}
        confirmLoading={decide.isPending}
        onOk={() => decision && decide.mutate(decision)}
        onCancel={() => setDecision(null)}
        destroyOnHidden
      >
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
        {decision?.kind === 'approve' && (
          <Select
            aria-label={t.role}
            placeholder={t.rolePlaceholder}
            style={{ width: '100%' }}
            value={decision.role}
            options={(roles.data ?? []).map((r) => ({ value: r.name, label: r.name }))}
            onChange={(role) => setDecision({ ...decision, role })}
          />
        )}
        {decision?.kind === 'reject' && (
          <Input.TextArea
            aria-label={t.reason}
            placeholder={t.reasonPlaceholder}
            maxLength={2000}
            rows={3}
            value={decision.reason}
            onChange={(e) => setDecision({ ...decision, reason: e.target.value })}
          />
        )}
      </Modal>
      <Modal
        open={approval !== null}
        title={fill(t.maySignIn, { username: approval?.username ?? '' })}
        footer={null}
        onCancel={() => setApproval(null)}
      >
        <Typography.Paragraph>
          {fill(t.linkHelp, { expires: approval ? formatDate(approval.resetLink.expiresAt) : '' })}
        </Typography.Paragraph>
        <Input.TextArea
          readOnly
          autoSize
          aria-label={t.resetLink}
          value={approval ? new URL(approval.resetLink.url, window.location.origin).toString() : ''}
        />
      </Modal>
    </Card>
  );
}
