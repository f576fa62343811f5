import { ArrowLeftOutlined } from '@ant-design/icons';
import type { Screen } from '@sextant/api';
import { Alert, Empty, Space, Spin, Typography } from 'antd';
import { Link, useParams, useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/api-client.ts';
import { useReport } from './api/get-report.ts';
import { useReportFiles, useReportSource } from './api/report-files.ts';
import { GradeValue } from './components/GradeValue.tsx';
import { StatusTag } from './components/StatusTag.tsx';
import { FileTree } from './source/FileTree.tsx';
import { SourceViewer } from './source/SourceViewer.tsx';
import { reportDetailPath } from './url.ts';

function Legend() {
  const swatch = (color: string, label: string) => (
    <span>
      <span className="legend-swatch" style={{ background: color }} />
      {label}
    </span>
  );
  return (
    <>
      {swatch('#e6f7ed', 'covered')}
      {swatch('#fde8e8', 'not covered')}
      {swatch('#fff4db', 'branches partly covered')}
      {swatch('#7367f0', 'changed line (gutter bar)')}
    </>
  );
}

/** /codecoverage/:id (full layout): the report's file tree and the chosen file with its marks. */
export default function CodeCoveragePage(_: { screen: Screen }) {
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const report = useReport(id);
  const files = useReportFiles(id);
  const list = files.data ?? [];
  const chosen = params.get('file') ?? list.find((f) => f.changed)?.path ?? list[0]?.path;
  const line = Number(params.get('line')) || undefined;
  const source = useReportSource(id, chosen);
  const file = list.find((f) => f.path === chosen);

  return (
    <div className="codecoverage-page">
      <Space style={{ justifyContent: 'space-between', width: '100%' }} wrap>
        <Space>
          <Link to={reportDetailPath(id)}>
            <ArrowLeftOutlined /> Report
          </Link>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {report.data?.name ?? 'Coverage report view'}
          </Typography.Title>
          {report.data && <StatusTag status={report.data.status} errMsg={report.data.errMsg} />}
          {report.data && (
            <Typography.Text type="secondary">
              {report.data.appName} · {report.data.newVersion}
              {source.data ? ` @ ${source.data.commit.slice(0, 10)}` : ''}
            </Typography.Text>
          )}
        </Space>
      </Space>
      {(report.error || files.error) && (
        <Alert type="error" showIcon message={errorMessage(report.error ?? files.error)} />
      )}
      <div className="codecoverage-body">
        <nav className="codecoverage-tree">
          {files.isPending ? (
            <Spin />
          ) : list.length === 0 ? (
            <Empty description="This report has no files with coverage." />
          ) : (
            <FileTree
              files={list}
              selected={chosen}
              onSelect={(path) => setParams({ file: path }, { replace: false })}
            />
          )}
        </nav>
        <section className="codecoverage-source">
          <div className="source-legend">
            {file && (
              <Typography.Text strong>
                {file.path} · lines <GradeValue value={file.lineTotal ? file.lineCovered / file.lineTotal : null} /> (
                {file.lineCovered}/{file.lineTotal}), branches{' '}
                <GradeValue value={file.branchTotal ? file.branchCovered / file.branchTotal : null} />
                {file.diffLineTotal ? (
                  <>
                    , changed lines <GradeValue value={(file.diffLineCovered ?? 0) / file.diffLineTotal} />
                  </>
                ) : null}
              </Typography.Text>
            )}
            <Legend />
          </div>
          {source.error && <Alert type="error" showIcon message={errorMessage(source.error)} />}
          {source.isFetching && !source.data && <Spin style={{ margin: 24 }} />}
          {source.data && <SourceViewer view={source.data} targetLine={line} />}
          {!chosen && !files.isPending && <Empty style={{ margin: 48 }} description="Choose a file." />}
        </section>
      </div>
    </div>
  );
}
