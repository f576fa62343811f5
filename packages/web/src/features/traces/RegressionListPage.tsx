import { type RegressionRun, type RegressionSide, type Screen, screenByName } from '@sextant/api';
import { App, Card, Table, Tag } from 'antd';
import { Link, useNavigate } from 'react-router';
import { useLocale, useTexts } from '../../lib/i18n.tsx';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { useCreateRegression, useRegressionRuns } from './api/regressions.ts';
import { RegressionForm } from './components/RegressionForm.tsx';
import { traceTexts } from './texts.ts';

export const runPath = (id: string) =>
  screenByName('otel-regression-detail').path.replace(':id', encodeURIComponent(id));

export function useSideLabel() {
  const { formatDate } = useLocale();
  return (side: RegressionSide) =>
    side.kind === 'version' ? side.version : `${formatDate(side.from)} – ${formatDate(side.to)}`;
}

/** /otel/regression: make a regression run, list the stored ones (issue 36). */
export default function RegressionListPage({ screen }: { screen: Screen }) {
  const t = useTexts(traceTexts).regression;
  const title = useScreenTitle(screen);
  const { formatDate } = useLocale();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const runs = useRegressionRuns();
  const create = useCreateRegression();
  const sideLabel = useSideLabel();
  return (
    <Card title={title}>
      <RegressionForm
        busy={create.isPending}
        onCreate={(input) =>
          create.mutate(input, {
            onSuccess: (run) => {
              message.success(t.created);
              navigate(runPath(run.id));
            },
            onError: (e) => message.error(e.message),
          })
        }
      />
      <Table<RegressionRun>
        rowKey="id"
        size="small"
        loading={runs.isFetching}
        dataSource={runs.data?.items ?? []}
        columns={[
          { title: t.name, dataIndex: 'name', render: (v: string, r) => <Link to={runPath(r.id)}>{v}</Link> },
          { title: t.base, dataIndex: 'base', render: sideLabel },
          { title: t.candidate, dataIndex: 'candidate', render: sideLabel },
          {
            title: t.findings,
            key: 'counts',
            render: (_v, r) => (
              <>
                <Tag color="error">{`${t.verdicts.slower} ${r.counts.slower}`}</Tag>
                <Tag color="volcano">{`${t.verdicts['failing-more']} ${r.counts['failing-more']}`}</Tag>
                <Tag color="blue">{`${t.verdicts.added} ${r.counts.added}`}</Tag>
                <Tag>{`${t.verdicts.removed} ${r.counts.removed}`}</Tag>
              </>
            ),
          },
          { title: t.createdAt, dataIndex: 'createdAt', render: (v: string) => formatDate(v) },
        ]}
      />
    </Card>
  );
}
