import type { COVERAGE_TYPES, CreateReport, UpdateReport } from '@sextant/api';
import {
  Alert,
  AutoComplete,
  Button,
  Card,
  Checkbox,
  Col,
  Form,
  InputNumber,
  Radio,
  Row,
  Space,
  Typography,
} from 'antd';
import { Link } from 'react-router';
import { usePermission } from '../../../lib/permissions.ts';
import { type RefOption, useAppRefs, useRefreshBranches } from '../api/get-app-refs.ts';
import { useReport } from '../api/get-report.ts';
import type { reportFormTexts } from '../form-texts.ts';
import { reportDetailPath } from '../url.ts';
import { ReportProgress } from './ReportProgress.tsx';
import { useReportNotes } from './useReportNotes.ts';

type FormTexts = (typeof reportFormTexts)['en'];

export type ReportFormValues = {
  app: string;
  name: string;
  baseVersion: string;
  newVersion: string;
  envType: string;
  testType: 1 | 2;
  coverageType: (typeof COVERAGE_TYPES)[number];
  /** Issue 38: days of older builds' coverage to carry forward (0 or empty: off). */
  carryForwardDays?: number | null;
  rerun?: boolean;
};

/** What the form sends: a new report names its app and test type, an edited one may ask for a rerun. */
export function reportBody(v: ReportFormValues, editing: boolean): CreateReport | UpdateReport {
  const { name, baseVersion, newVersion, envType, coverageType } = v;
  const carryForwardDays = v.carryForwardDays ?? 0;
  return editing
    ? { name, baseVersion, newVersion, envType, coverageType, carryForwardDays, rerun: Boolean(v.rerun) }
    : { app: v.app, name, baseVersion, newVersion, envType, testType: v.testType, coverageType, carryForwardDays };
}

function refOptions(refs: { branches: RefOption[]; versions: RefOption[] } | undefined, t: FormTexts) {
  return refs
    ? [
        { label: t.branches, options: refs.branches },
        { label: t.projectVersions, options: refs.versions },
      ].filter((g) => g.options.length > 0)
    : [];
}

/**
 * The base and new version, offered from the app's branches and project versions; an app whose
 * branches were never read says so, with a button to read them for whoever may.
 */
export function VersionFields({ appId, t }: { appId: string | undefined; t: FormTexts }) {
  const refs = useAppRefs(appId);
  const mayRefresh = usePermission('update', 'Branch');
  const refreshBranches = useRefreshBranches();
  const versions = refOptions(refs.data, t);
  return (
    <>
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
              <Button size="small" loading={refreshBranches.isPending} onClick={() => refreshBranches.mutate(appId)}>
                {t.readBranches}
              </Button>
            )
          }
        />
      )}
    </>
  );
}

/** The test type (fixed once created), the coverage type, and when editing, whether to run the report again. */
export function RunFields({ editing, t }: { editing: boolean; t: FormTexts }) {
  return (
    <>
      <Form.Item name="testType" label={t.testType}>
        <Radio.Group disabled={editing}>
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
      <Form.Item name="carryForwardDays" label={t.carryForward} extra={t.carryForwardHelp}>
        <InputNumber min={0} max={365} precision={0} addonAfter={t.days} style={{ width: 160 }} />
      </Form.Item>
      {editing && (
        <Form.Item name="rerun" valuePropName="checked">
          <Checkbox>{t.rerun}</Checkbox>
        </Form.Item>
      )}
    </>
  );
}

/** The saved report's pipeline, live; before saving, what will show here. */
export function ProgressCard({ watched, editing, t }: { watched: string | undefined; editing: boolean; t: FormTexts }) {
  const report = useReport(watched);
  const notes = useReportNotes(watched);
  return (
    <Card title={t.progress}>
      {report.data ? (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text>
            <Link to={reportDetailPath(report.data.id)}>{report.data.name}</Link>
          </Typography.Text>
          <ReportProgress report={report.data} notes={notes} />
        </Space>
      ) : (
        <Typography.Text type="secondary">{editing ? t.progressWhenSaved : t.progressWhenCreated}</Typography.Text>
      )}
    </Card>
  );
}
