import type { ZentaoImportSummary } from '@sextant/api';
import { Table, Typography } from 'antd';
import { fill, useLocale, useTexts } from '../../lib/i18n.tsx';
import { zentaoTexts } from './texts.ts';

/** What the last import created, updated, left and refused, and the refused items with their reasons. */
export function ImportSummary({ summary }: { summary: ZentaoImportSummary }) {
  const t = useTexts(zentaoTexts);
  const { locale, formatNumber, formatDate } = useLocale();
  const rows = [
    { key: 'requirements', kind: t.requirements, ...summary.requirements },
    { key: 'cases', kind: t.cases, ...summary.cases },
  ];
  const count = (n: number) => formatNumber(n);
  return (
    <div data-testid="zentao-summary">
      <Typography.Paragraph type="secondary">
        {fill(t.lastImport, {
          at: formatDate(summary.at),
          by: summary.by === 'schedule' ? t.bySchedule : summary.by,
          products: summary.products,
        })}
      </Typography.Paragraph>
      <Table
        size="small"
        pagination={false}
        dataSource={rows}
        columns={[
          { title: t.kind, dataIndex: 'kind' },
          { title: t.created, dataIndex: 'created', align: 'right', render: count },
          { title: t.updated, dataIndex: 'updated', align: 'right', render: count },
          { title: t.unchanged, dataIndex: 'unchanged', align: 'right', render: count },
          { title: t.refused, dataIndex: 'refused', align: 'right', render: count },
        ]}
      />
      {summary.refusals.length > 0 && (
        <>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t.refusals}
          </Typography.Title>
          <Table
            size="small"
            rowKey={(r) => `${r.kind}-${r.zentaoId}`}
            pagination={summary.refusals.length > 10 ? { pageSize: 10 } : false}
            dataSource={summary.refusals}
            columns={[
              { title: t.kind, dataIndex: 'kind', render: (k: keyof typeof t.kinds) => t.kinds[k] },
              { title: t.zentaoId, dataIndex: 'zentaoId' },
              { title: t.itemTitle, dataIndex: 'title', ellipsis: true },
              { title: t.reason, key: 'reason', render: (_, r) => (locale === 'en' ? r.reason : t.reasons[r.code]) },
            ]}
          />
        </>
      )}
    </div>
  );
}
