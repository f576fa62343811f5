import { CodeOutlined, EditOutlined } from '@ant-design/icons';
import type { Screen } from '@sextant/api';
import { Alert, Button, Card, Checkbox, Descriptions, Input, Result, Space, Spin, Tag, Typography } from 'antd';
import { type ReactNode, useMemo } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api-client.ts';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { useTexts } from '../../lib/i18n.tsx';
import { useHighlightMenu } from '../../lib/menu-highlight.ts';
import { usePermission } from '../../lib/permissions.ts';
import { tableLoading } from '../../lib/table-loading.ts';
import { useReport } from './api/get-report.ts';
import { type DetailQuery, useReportDetailRows } from './api/get-report-details.ts';
import { CarriedFigures } from './components/CarriedFigures.tsx';
import { ClassTable } from './components/ClassTable.tsx';
import { ReportFigures } from './components/ReportFigures.tsx';
import { ReportProgress } from './components/ReportProgress.tsx';
import { StatusTag } from './components/StatusTag.tsx';
import { useReportNotes } from './components/useReportNotes.ts';
import { reportTexts } from './texts.ts';
import {
  readDetailQuery,
  reportEditPath,
  reportListPath,
  reportListScreen,
  reportSourcePath,
  writeDetailQuery,
} from './url.ts';

type Props = { screen: Screen; activity?: (reportId: string) => ReactNode };

/** /dashboard/coverage/:id: a report's figures, its classes and methods, and its agents' activity. */
export function ReportDetail({ activity }: Props) {
  const { id = '' } = useParams();
  const t = useTexts(reportTexts);
  const errorMessage = useErrorMessage();
  const report = useReport(id);
  const notes = useReportNotes(id);
  const mayEdit = usePermission('update', 'Report');
  // Filters and sort in the URL (restored on reload); rows come a page at a time as the table scrolls.
  const [params, setParams] = useSearchParams();
  const { page: _page, ...query } = readDetailQuery(params);
  const setQuery = (next: DetailQuery) => setParams(writeDetailQuery({ ...next, page: 1 }), { replace: true });
  const ready = report.data?.status === 'SUCCESS';
  const details = useReportDetailRows(id, query, ready);
  const rows = useMemo(() => details.data?.pages.flatMap((p) => p.reports) ?? [], [details.data]);
  const onNearEnd = () => {
    if (details.hasNextPage && !details.isFetchingNextPage) void details.fetchNextPage();
  };
  // The list the report belongs to is highlighted in the menu (point 2): functional tests have their own.
  useHighlightMenu(report.data ? reportListScreen(report.data.testType).name : undefined);

  if (report.isPending) return <Spin size="large" style={{ display: 'block', margin: 48 }} />;
  if (report.error) {
    const missing = report.error instanceof ApiError && report.error.code === 404;
    return (
      <Result
        status={missing ? '404' : 'error'}
        title={missing ? t.detail.noSuchReport : errorMessage(report.error)}
        subTitle={missing ? t.detail.maybeDeleted : undefined}
        extra={<Link to={reportListPath(1)}>{t.detail.backToReports}</Link>}
      />
    );
  }
  const r = report.data;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card
        title={
          <Space>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {r.name}
            </Typography.Title>
            <StatusTag status={r.status} errMsg={r.errMsg} />
          </Space>
        }
        extra={
          <Space>
            <Link to={reportSourcePath(r.id)}>
              <Button icon={<CodeOutlined />} disabled={!ready}>
                {t.detail.sourceView}
              </Button>
            </Link>
            {mayEdit && (
              <Link to={reportEditPath(r.id)}>
                <Button icon={<EditOutlined />}>{t.detail.editOrRerun}</Button>
              </Link>
            )}
          </Space>
        }
      >
        <Descriptions size="small" column={{ xs: 1, md: 3 }}>
          <Descriptions.Item label={t.detail.app}>{r.appName}</Descriptions.Item>
          <Descriptions.Item label={t.detail.versions}>
            {r.coverageType === 'incremental' && (
              <>
                <Typography.Text code>{r.baseVersion}</Typography.Text>
                {r.baseCommit && <Typography.Text type="secondary"> ({r.baseCommit.slice(0, 8)})</Typography.Text>} →{' '}
              </>
            )}
            <Typography.Text code>{r.newVersion}</Typography.Text>
            {r.newCommit && <Typography.Text type="secondary"> ({r.newCommit.slice(0, 8)})</Typography.Text>}
          </Descriptions.Item>
          <Descriptions.Item label={t.detail.environment}>{r.envType}</Descriptions.Item>
          <Descriptions.Item label={t.detail.tests}>
            {r.testType === 1 ? t.detail.unitTests : t.detail.functionalTests}
          </Descriptions.Item>
          <Descriptions.Item label={t.detail.coverage}>
            <Tag color={r.coverageType === 'incremental' ? 'purple' : 'blue'}>{t.coverageTypes[r.coverageType]}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t.detail.authors}>{r.codeAuthor || '—'}</Descriptions.Item>
        </Descriptions>
      </Card>
      {ready ? (
        <>
          <ReportFigures report={r} />
          <CarriedFigures report={r} />
        </>
      ) : (
        <Card title={t.detail.pipeline} size="small">
          <ReportProgress report={r} notes={notes} />
        </Card>
      )}
      {ready && (
        <Card
          title={t.detail.classes}
          size="small"
          extra={
            <Space wrap>
              <Checkbox
                checked={query.changedOnly}
                onChange={(e) => setQuery({ ...query, changedOnly: e.target.checked || undefined })}
              >
                {t.detail.changedOnly}
              </Checkbox>
              <Checkbox
                checked={query.uncoveredOnly}
                onChange={(e) => setQuery({ ...query, uncoveredOnly: e.target.checked || undefined })}
              >
                {t.detail.uncoveredOnly}
              </Checkbox>
              <Input.Search
                allowClear
                size="small"
                aria-label={t.detail.findClass}
                placeholder={t.detail.findClass}
                style={{ width: 200 }}
                defaultValue={query.q}
                onSearch={(v) => setQuery({ ...query, q: v.trim() || undefined })}
              />
            </Space>
          }
        >
          {details.error && <Alert type="error" showIcon message={errorMessage(details.error)} />}
          <ClassTable
            report={r}
            rows={rows}
            total={details.data?.pages[0]?.total ?? 0}
            loading={tableLoading(details)}
            loadingMore={details.isFetchingNextPage}
            onNearEnd={onNearEnd}
            query={query}
            onQuery={setQuery}
          />
        </Card>
      )}
      {activity?.(r.id)}
    </Space>
  );
}

export default function ReportDetailPage({ screen }: { screen: Screen }) {
  return <ReportDetail screen={screen} />;
}
