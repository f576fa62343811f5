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
import { errorMessage, fieldErrors } from '../../lib/api-client.ts';
import { usePermission } from '../../lib/permissions.ts';
import { useAppRefs, useRefreshBranches, useReportApps } from './api/get-app-refs.ts';
import { useReport } from './api/get-report.ts';
import { useSaveReport } from './api/save-report.ts';
import { ReportProgress } from './components/ReportProgress.tsx';
import { useReportNotes } from './components/useReportNotes.ts';
import { reportDetailPath, reportListPath } from './url.ts';

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

const refOptions = (
  refs: { branches: { value: string; label: string }[]; versions: { value: string; label: string }[] } | undefined,
) =>
  refs
    ? [
        { label: 'Branches', options: refs.branches },
        { label: 'Project versions', options: refs.versions },
      ].filter((g) => g.options.length > 0)
    : [];

/** /dashboard/coverageAdd and /dashboard/coverageEdit/:id; once saved, the pipeline's progress live. */
export default function ReportFormPage({ screen }: { screen: Screen }) {
  const { id } = useParams();
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
          Object.entries(fieldErrors(error)).map(([name, text]) => ({ name: name as keyof Values, errors: [text] })),
        ),
    });
  }

  const initialTestType = params.get('testType') === '2' ? 2 : 1;
  const versions = refOptions(refs.data);
  return (
    <Row gutter={16}>
      <Col xs={24} lg={14}>
        <Card title={screen.title}>
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
            <Form.Item name="app" label="App" rules={[{ required: true, message: 'Please choose an app.' }]}>
              <Select
                showSearch
                optionFilterProp="label"
                disabled={Boolean(editing)}
                loading={apps.isPending}
                placeholder="Choose the app"
                options={(apps.data?.items ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.teamName})` }))}
              />
            </Form.Item>
            <Form.Item name="name" label="Report name" rules={[{ required: true, message: 'Please name the report.' }]}>
              <Input maxLength={200} placeholder="e.g. Sprint 12 regression" />
            </Form.Item>
            <Row gutter={12}>
              <Col span={12}>
                <Form.Item
                  name="baseVersion"
                  label="Base version"
                  extra="Branch, tag or commit the changes are measured from."
                  rules={[{ required: true, message: 'Please give the base version.' }]}
                >
                  <AutoComplete options={versions} placeholder="e.g. main or v1.2.0" filterOption />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item
                  name="newVersion"
                  label="New version"
                  extra="Branch, tag or commit under test."
                  rules={[{ required: true, message: 'Please give the new version.' }]}
                >
                  <AutoComplete options={versions} placeholder="e.g. feature/login or a commit" filterOption />
                </Form.Item>
              </Col>
            </Row>
            {appId && refs.data && versions.length === 0 && (
              <Alert
                type="info"
                showIcon
                style={{ marginBottom: 16 }}
                message="No branches are known for this app yet: type a branch, tag or commit."
                action={
                  mayRefresh && (
                    <Button
                      size="small"
                      loading={refreshBranches.isPending}
                      onClick={() => refreshBranches.mutate(appId)}
                    >
                      Read branches from the repository
                    </Button>
                  )
                }
              />
            )}
            <Form.Item
              name="envType"
              label="Environment"
              rules={[{ required: true, message: 'Please choose the environment.' }]}
            >
              <AutoComplete
                options={(app?.environments ?? []).map((e) => ({ value: e, label: e }))}
                placeholder={app?.environments.length ? 'Choose the environment' : 'e.g. test'}
              />
            </Form.Item>
            <Form.Item name="testType" label="Test type">
              <Radio.Group disabled={Boolean(editing)}>
                <Radio.Button value={1}>Unit / developer tests</Radio.Button>
                <Radio.Button value={2}>Functional / QA tests</Radio.Button>
              </Radio.Group>
            </Form.Item>
            <Form.Item name="coverageType" label="Coverage type">
              <Radio.Group>
                <Radio.Button value="incremental">Incremental (changed code)</Radio.Button>
                <Radio.Button value="full">Full</Radio.Button>
              </Radio.Group>
            </Form.Item>
            {editing && (
              <Form.Item name="rerun" valuePropName="checked">
                <Checkbox>Run the report again with the coverage received since</Checkbox>
              </Form.Item>
            )}
            <Space>
              <Button type="primary" htmlType="submit" loading={save.isPending}>
                {editing ? 'Save' : 'Create report'}
              </Button>
              <Link to={reportListPath(existing.data?.testType ?? initialTestType)}>Back to the list</Link>
            </Space>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={10}>
        <Card title="Progress">
          {watchedReport.data ? (
            <Space direction="vertical" style={{ width: '100%' }}>
              <Typography.Text>
                <Link to={reportDetailPath(watchedReport.data.id)}>{watchedReport.data.name}</Link>
              </Typography.Text>
              <ReportProgress report={watchedReport.data} notes={notes} />
            </Space>
          ) : (
            <Typography.Text type="secondary">
              The pipeline's steps appear here, live, once the report is {editing ? 'saved' : 'created'}.
            </Typography.Text>
          )}
        </Card>
      </Col>
    </Row>
  );
}
