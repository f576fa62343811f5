import { PlusOutlined } from '@ant-design/icons';
import { PATHS, type Screen } from '@sextant/api';
import { Alert, App, Button, Card, Empty, Input, Select, Space, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { OnboardingPanel } from '../../components/onboarding/OnboardingPanel.tsx';
import { useNamedOptions } from '../../lib/admin-options.ts';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { fill, useTexts } from '../../lib/i18n.tsx';
import { usePermission } from '../../lib/permissions.ts';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { tableLoading } from '../../lib/table-loading.ts';
import { useDeleteReport } from './api/save-report.ts';
import { type ReportSearch, useSearchReports } from './api/search-reports.ts';
import { ReportTable } from './components/ReportTable.tsx';
import { useLiveReportList } from './components/useLiveReportList.ts';
import { reportTexts } from './texts.ts';
import { readReportSearch, reportAddPath, writeReportSearch } from './url.ts';

/** /dashboard/devcoverage (unit tests, testType 1) and /dashboard/testcoverage (functional, testType 2). */
export default function ReportListPage({ screen }: { screen: Screen }) {
  const testType = screen.name === 'dashboard-test-coverage' ? 2 : 1;
  const { message } = App.useApp();
  const t = useTexts(reportTexts);
  const title = useScreenTitle(screen);
  const errorMessage = useErrorMessage();
  const [params, setParams] = useSearchParams();
  const search = readReportSearch(params, testType);
  const list = useSearchReports(search);
  const remove = useDeleteReport();
  const apps = useNamedOptions(PATHS.apps);
  const may = {
    create: usePermission('create', 'Report'),
    update: usePermission('update', 'Report'),
    remove: usePermission('delete', 'Report'),
  };
  useLiveReportList();

  const setSearch = (next: ReportSearch) => setParams(writeReportSearch(next), { replace: true });
  const setFilter = (key: 'appName' | 'newVersion' | 'envType', value: string | undefined) =>
    setSearch({ ...search, [key]: value || undefined, page: 1 });
  const filtered = Boolean(search.appName || search.newVersion || search.envType);

  // Filtered by app only and still empty: that app has no report yet, so show how to feed it.
  const onboardingApp = search.appName ?? (apps.length === 1 ? apps[0]?.label : undefined);
  const onlyApp = !search.newVersion && !search.envType;
  const emptyTitle =
    testType === 1
      ? search.appName
        ? t.list.emptyUnitFor
        : t.list.emptyUnit
      : search.appName
        ? t.list.emptyFunctionalFor
        : t.list.emptyFunctional;
  const empty =
    filtered && !(onlyApp && search.appName) ? (
      <Empty description={t.list.noMatch} />
    ) : (
      <Space direction="vertical" size={8} style={{ maxWidth: 760, margin: '0 auto', textAlign: 'left' }}>
        <Typography.Text strong>{fill(emptyTitle, { app: search.appName ?? '' })}</Typography.Text>
        <Typography.Text type="secondary">
          {fill(t.list.howTo, { withNewReport: may.create ? t.list.withNewReport : '' })}
        </Typography.Text>
        {onboardingApp ? (
          <OnboardingPanel app={onboardingApp} />
        ) : (
          <Typography.Text type="secondary">{t.list.chooseApp}</Typography.Text>
        )}
      </Space>
    );

  return (
    <Card>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        <Space wrap>
          <Select
            allowClear
            showSearch
            aria-label={t.list.app}
            placeholder={t.list.allApps}
            style={{ width: 180 }}
            value={search.appName}
            options={apps.map((a) => ({ value: a.label, label: a.label }))}
            onChange={(v: string | undefined) => setFilter('appName', v)}
          />
          <Input.Search
            allowClear
            aria-label={t.list.newVersion}
            placeholder={t.list.newVersion}
            style={{ width: 170 }}
            defaultValue={search.newVersion}
            onSearch={(v) => setFilter('newVersion', v.trim())}
          />
          <Input.Search
            allowClear
            aria-label={t.list.environment}
            placeholder={t.list.environment}
            style={{ width: 170 }}
            defaultValue={search.envType}
            onSearch={(v) => setFilter('envType', v.trim())}
          />
          {may.create && (
            <Link to={reportAddPath(testType)}>
              <Button type="primary" icon={<PlusOutlined />}>
                {t.list.newReport}
              </Button>
            </Link>
          )}
        </Space>
      </Space>
      {list.error && <Alert type="error" showIcon message={errorMessage(list.error)} style={{ marginBottom: 16 }} />}
      <ReportTable
        reports={list.data?.reports ?? []}
        total={list.data?.total ?? 0}
        totalExact={list.data?.totalExact ?? true}
        loading={tableLoading(list)}
        search={search}
        onSearch={setSearch}
        can={may}
        empty={empty}
        onDelete={(r) =>
          remove.mutate(r.id, {
            onSuccess: () => message.success(fill(t.list.deleted, { name: r.name })),
            onError: (e) => message.error(errorMessage(e)),
          })
        }
      />
    </Card>
  );
}
