import type { COVERAGE_TYPES, CreateReport, Screen, UpdateReport } from '@sextant/api';
import {
  Alert,
  AutoComplete,
  Button,
  Card,
  Checkbox,
  Col,
  Form,
  Input,
  Radio,
  Row,
  Select,
  Space,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { useFieldErrors } from '../../lib/field-messages.ts';
import { useTexts } from '../../lib/i18n.tsx';
import { useHighlightMenu } from '../../lib/menu-highlight.ts';
import { usePermission } from '../../lib/permissions.ts';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { useAppRefs, useRefreshBranches, useReportApps } from './api/get-app-refs.ts';
import { useReport } from './api/get-report.ts';
import { useSaveReport } from './api/save-report.ts';
import { ReportProgress } from './components/ReportProgress.tsx';
import { useReportNotes } from './components/useReportNotes.ts';
import { reportFormTexts } from './form-texts.ts';
import { reportDetailPath, reportListPath, reportListScreen } from './url.ts';

type Values = {
  app: string;
  name: string;
  baseVersion: string;
  newVersion: string;
  envType: string;
  testType: 1 | 2;
  coverageType: (typeof COVERAGE_TYPES)[number];
  rerun?: boolean;
};

type Option = { value: string; label: string };
const refOptions = (
  refs: { branches: Option[]; versions: Option[] } | undefined,
  groups: { branches: string; versions: string },
) =>
  refs
    ? [
        { label: groups.branches, options: refs.branches },
        { label: groups.versions, options: refs.versions },
      ].filter((g) => g.options.length > 0)
    : [];

/** /dashboard/coverageAdd and /dashboard/coverageEdit/:id; once saved, the pipeline's progress live. */
export default function ReportFormPage({ screen }: { screen: Screen }) {
  const fieldErrorsOf = useFieldErrors();
  const { id } = useParams();
  const t = useTexts(reportFormTexts);
  const title = useScreenTitle(screen);
  const errorMessage = useErrorMessage();
  const editing = screen.name === 'dashboard-coverage-edit' ? id : undefined;
  const [params] = useSearchParams();
  const [form] = Form.useForm<Values>();
  const [watched, setWatched] = useState<string | undefined>(undefined);
  const apps = useReportApps();
  const existing = useReport(editing);
  const appId = Form.useWatch('app', form);
  const refs = useAppRefs(appId);
  const save = useSaveReport(editing);
  const watchedReport = useReport(watched);
  const notes = useReportNotes(watched);
  const app = apps.data?.items.find((a) => a.id === appId);
  const mayRefresh = usePermission('update', 'Branch');
  const refreshBranches = useRefreshBranches();

  useEffect(() => {
    const r = existing.data;
    if (!r) return;
    form.setFieldsValue({
      app: r.appId,
      name: r.name,
      baseVersion: r.baseVersion,
      newVersion: r.newVersion,
      envType: r.envType,
      testType: r.testType,
      coverageType: r.coverageType,
    });
  }, [existing.data, form]);

  async function submit() {
    const v = await form.validateFields();
    const body: CreateReport | UpdateReport = editing
      ? {
          name: v.name,
          baseVersion: v.baseVersion,
          newVersion: v.newVersion,
          envType: v.envType,
          coverageType: v.coverageType,
          rerun: Boolean(v.rerun),
        }
      : {
          app: v.app,
          name: v.name,
          baseVersion: v.baseVersion,
          newVersion: v.newVersion,
          envType: v.envType,
          testType: v.testType,
          coverageType: v.coverageType,
        };
    save.mutate(body, {
      onSuccess: (report) => setWatched(report.id),
      onError: (error) =>
        form.setFields(
          Object.entries(fieldErrorsOf(error)).map(([name, text]) => ({ name: name as keyof Values, errors: [text] })),
        ),
    });
  }

  const initialTestType = params.get('testType') === '2' ? 2 : 1;
  useHighlightMenu(reportListScreen(existing.data?.testType ?? initialTestType).name);
  const versions = refOptions(refs.data, { branches: t.branches, versions: t.projectVersions });
  return (
    <Row gutter={16}>
      <Col xs={24} lg={14}>
        <Card title={title}>
          {existing.error && (
            <Alert type="error" showIcon message={errorMessage(existing.error)} style={{ marginBottom: 16 }} />
          )}
          {save.error && (
            <Alert type="error" showIcon message={errorMessage(save.error)} style={{ marginBottom: 16 }} />
          )}
          <Form<Values>
            form={form}
            layout="vertical"
            initialValues={{ testType: initialTestType, coverageType: 'incremental' }}
            onFinish={() => void submit()}
          >
            <Form.Item name="app" label={t.app} rules={[{ required: true, message: t.appRequired }]}>
              <Select
                showSearch
                optionFilterProp="label"
                disabled={Boolean(editing)}
                loading={apps.isPending}
                placeholder={t.appPlaceholder}
                options={(apps.data?.items ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.teamName})` }))}
              />
            </Form.Item>
            <Form.Item name="name" label={t.name} rules={[{ required: true, message: t.nameRequired }]}>
              <Input maxLength={200} placeholder={t.namePlaceholder} />
            </Form.Item>
            <Row gutter={12}>
              <Col span={12}>
                <Form.Item
                  name="baseVersion"
                  label={t.baseVersion}
                  extra={t.baseHelp}
                  rules={[{ required: true, message: t.baseRequired }]}
                >
                  <AutoComplete options={versions} placeholder={t.basePlaceholder} filterOption />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item
                  name="newVersion"
                  label={t.newVersion}
                  extra={t.newHelp}
                  rules={[{ required: true, message: t.newRequired }]}
                >
                  <AutoComplete options={versions} placeholder={t.newPlaceholder} filterOption />
                </Form.Item>
              </Col>
            </Row>
            {appId && refs.data && versions.length === 0 && (
              <Alert
                type="info"
                showIcon
                style={{ marginBottom: 16 }}
                message={t.noBranches}
                action={
                  mayRefresh && (
                    <Button
                      size="small"
                      loading={refreshBranches.isPending}
                      onClick={() => refreshBranches.mutate(appId)}
                    >
                      {t.readBranches}
                    </Button>
                  )
                }
              />
            )}
            <Form.Item
              name="envType"
              label={t.environment}
              rules={[{ required: true, message: t.environmentRequired }]}
            >
              <AutoComplete
                options={(app?.environments ?? []).map((e) => ({ value: e, label: e }))}
                placeholder={app?.environments.length ? t.environmentPlaceholder : t.environmentExample}
              />
            </Form.Item>
            <Form.Item name="testType" label={t.testType}>
              <Radio.Group disabled={Boolean(editing)}>
                <Radio.Button value={1}>{t.unitTests}</Radio.Button>
                <Radio.Button value={2}>{t.functionalTests}</Radio.Button>
              </Radio.Group>
            </Form.Item>
            <Form.Item name="coverageType" label={t.coverageType}>
              <Radio.Group>
                <Radio.Button value="incremental">{t.incremental}</Radio.Button>
                <Radio.Button value="full">{t.full}</Radio.Button>
              </Radio.Group>
            </Form.Item>
            {editing && (
              <Form.Item name="rerun" valuePropName="checked">
                <Checkbox>{t.rerun}</Checkbox>
              </Form.Item>
            )}
            <Space>
              <Button type="primary" htmlType="submit" loading={save.isPending}>
                {editing ? t.save : t.create}
              </Button>
              <Link to={reportListPath(existing.data?.testType ?? initialTestType)}>{t.backToList}</Link>
            </Space>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={10}>
        <Card title={t.progress}>
          {watchedReport.data ? (
            <Space direction="vertical" style={{ width: '100%' }}>
              <Typography.Text>
                <Link to={reportDetailPath(watchedReport.data.id)}>{watchedReport.data.name}</Link>
              </Typography.Text>
              <ReportProgress report={watchedReport.data} notes={notes} />
            </Space>
          ) : (
            <Typography.Text type="secondary">{editing ? t.progressWhenSaved : t.progressWhenCreated}</Typography.Text>
          )}
        </Card>
      </Col>
    </Row>
  );
}
