import { AUDITED_ENTITIES, type AuditLog, AuditLogSchema, PATHS, pageSchema } from '@sextant/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Card, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { useLocale, useTexts } from '../../lib/i18n.tsx';
import { api } from '../../lib/session.tsx';
import { tableLoading } from '../../lib/table-loading.ts';
import { useUserOptions } from '../../lib/user-options.ts';
import { auditTexts } from './texts.ts';

function describeChanges(changes: AuditLog['changes']): string {
  return Object.entries(changes)
    .map(([field, { from, to }]) => `${field}: ${JSON.stringify(from) ?? '—'} → ${JSON.stringify(to) ?? '—'}`)
    .join('; ');
}

/** Who changed what and when, newest first, filterable by entity and user. */
export default function AuditLogPage() {
  const [filter, setFilter] = useState<{ entity?: string; userId?: string }>({});
  const [page, setPage] = useState({ page: 1, perPage: 20 });
  const users = useUserOptions();
  const t = useTexts(auditTexts);
  const { formatDate } = useLocale();
  const errorMessage = useErrorMessage();
  const logs = useQuery({
    queryKey: [PATHS.auditLogs, filter, page],
    queryFn: () => api.get(PATHS.auditLogs, pageSchema(AuditLogSchema), { query: { ...filter, ...page } }),
    placeholderData: keepPreviousData,
  });
  return (
    <Card>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t.title}
        </Typography.Title>
        <Space wrap>
          <Select
            allowClear
            aria-label={t.entity}
            placeholder={t.anyEntity}
            style={{ width: 160 }}
            options={AUDITED_ENTITIES.map((e) => ({ value: e, label: e }))}
            onChange={(entity?: string) => setFilter((f) => ({ ...f, entity }))}
          />
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            aria-label={t.user}
            placeholder={t.anyone}
            style={{ width: 220 }}
            options={users}
            onChange={(userId?: string) => setFilter((f) => ({ ...f, userId }))}
          />
        </Space>
      </Space>
      {logs.error && <Alert type="error" showIcon message={errorMessage(logs.error)} />}
      <Table<AuditLog>
        rowKey="id"
        tableLayout="fixed"
        size="small"
        loading={tableLoading(logs)}
        dataSource={logs.data?.items ?? []}
        locale={{ emptyText: t.none }}
        pagination={{
          current: page.page,
          pageSize: page.perPage,
          total: logs.data?.total ?? 0,
          onChange: (p, perPage) => setPage({ page: p, perPage }),
        }}
        columns={[
          { title: t.when, dataIndex: 'at', width: 190, render: (at: string) => formatDate(at) },
          { title: t.who, dataIndex: 'actorName', width: 140 },
          { title: t.what, key: 'what', width: 200, render: (_, l) => <Tag>{`${l.action} ${l.entity}`}</Tag> },
          {
            title: t.changes,
            key: 'changes',
            ellipsis: true,
            render: (_, l) => describeChanges(l.changes),
          },
        ]}
      />
    </Card>
  );
}
