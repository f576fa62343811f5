import type { Screen } from '@sextant/api';
import { Alert, AutoComplete, Button, Card, Col, Form, Input, Row, Select, Space } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { useFieldErrors } from '../../lib/field-messages.ts';
import { useTexts } from '../../lib/i18n.tsx';
import { useHighlightMenu } from '../../lib/menu-highlight.ts';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { useReportApps } from './api/get-app-refs.ts';
import { useReport } from './api/get-report.ts';
import { useSaveReport } from './api/save-report.ts';
import {
  ProgressCard,
  type ReportFormValues,
  RunFields,
  reportBody,
  VersionFields,
} from './components/report-form-parts.tsx';
import { reportFormTexts } from './form-texts.ts';
import { reportListPath, reportListScreen } from './url.ts';

type Values = ReportFormValues;

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
  const save = useSaveReport(editing);
  const app = apps.data?.items.find((a) => a.id === appId);

  useEffect(() => {
    const r = existing.data;
    if (!r) return;
    const { name, baseVersion, newVersion, envType, testType, coverageType, carryForwardDays } = r;
    form.setFieldsValue({
      app: r.appId,
      name,
      baseVersion,
      newVersion,
      envType,
      testType,
      coverageType,
      carryForwardDays,
    });
  }, [existing.data, form]);

  async function submit() {
    const v = await form.validateFields();
    save.mutate(reportBody(v, Boolean(editing)), {
      onSuccess: (report) => setWatched(report.id),
      onError: (error) =>
        form.setFields(
          Object.entries(fieldErrorsOf(error)).map(([name, text]) => ({ name: name as keyof Values, errors: [text] })),
        ),
    });
  }

  const initialTestType = params.get('testType') === '2' ? 2 : 1;
  useHighlightMenu(reportListScreen(existing.data?.testType ?? initialTestType).name);
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
            initialValues={{ testType: initialTestType, coverageType: 'incremental', carryForwardDays: 0 }}
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
            <VersionFields appId={appId} t={t} />
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
            <RunFields editing={Boolean(editing)} t={t} />
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
        <ProgressCard watched={watched} editing={Boolean(editing)} t={t} />
      </Col>
    </Row>
  );
}
