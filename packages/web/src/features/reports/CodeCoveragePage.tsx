import { ArrowLeftOutlined } from '@ant-design/icons';
import type { Screen } from '@sextant/api';
import { Alert, Empty, Space, Spin, Typography } from 'antd';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { useLocale, useTexts } from '../../lib/i18n.tsx';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { useReport } from './api/get-report.ts';
import { useReportFiles, useReportSource } from './api/report-files.ts';
import { GradeValue } from './components/GradeValue.tsx';
import { StatusTag } from './components/StatusTag.tsx';
import { FileTree } from './source/FileTree.tsx';
import { lineOfHash } from './source/line-jumps.ts';
import { SourceViewer } from './source/SourceViewer.tsx';
import { sourceTexts } from './source/texts.ts';
import { reportDetailPath } from './url.ts';

function Legend() {
  const t = useTexts(sourceTexts).legend;
  const swatch = (color: string, label: string) => (
    <span>
      <span className="legend-swatch" style={{ background: color }} />
      {label}
    </span>
  );
  return (
    <>
      {swatch('#e6f7ed', t.covered)}
      {swatch('#fde8e8', t.uncovered)}
      {swatch('#fff4db', t.partial)}
      {swatch('#7367f0', t.changed)}
      {swatch('#f0e6fb', t.carried)}
    </>
  );
}

/** /codecoverage/:id (full layout): the report's file tree and the chosen file with its marks. */
export default function CodeCoveragePage({ screen }: { screen: Screen }) {
  const t = useTexts(sourceTexts);
  const title = useScreenTitle(screen);
  const errorMessage = useErrorMessage();
  const { formatNumber } = useLocale();
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const report = useReport(id);
  const files = useReportFiles(id);
  const list = files.data ?? [];
  const chosen = params.get('file') ?? list.find((f) => f.changed)?.path ?? list[0]?.path;
  const location = useLocation();
  const navigate = useNavigate();
  // A permalink's #L42 names the line; ?line= is how the class table opens a method.
  const line = lineOfHash(location.hash) ?? (Number(params.get('line')) || undefined);
  const showLine = (n: number) => navigate({ search: location.search, hash: `L${n}` }, { replace: true });
  const source = useReportSource(id, chosen);
  const file = list.find((f) => f.path === chosen);

  return (
    <div className="codecoverage-page">
      <Space style={{ justifyContent: 'space-between', width: '100%' }} wrap>
        <Space>
          <Link to={reportDetailPath(id)}>
            <ArrowLeftOutlined /> {t.backToReport}
          </Link>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {report.data?.name ?? title}
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
            <Empty description={t.noFiles} />
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
                {file.path} · {t.lines} <GradeValue value={file.lineTotal ? file.lineCovered / file.lineTotal : null} />{' '}
                ({formatNumber(file.lineCovered)}/{formatNumber(file.lineTotal)}){t.separator}
                {t.branches} <GradeValue value={file.branchTotal ? file.branchCovered / file.branchTotal : null} />
                {file.diffLineTotal ? (
                  <>
                    {t.separator}
                    {t.changedLines} <GradeValue value={(file.diffLineCovered ?? 0) / file.diffLineTotal} />
                  </>
                ) : null}
              </Typography.Text>
            )}
            <Legend />
            <Typography.Text type="secondary" className="source-keys">
              {t.keys}
            </Typography.Text>
          </div>
          {source.error && <Alert type="error" showIcon message={errorMessage(source.error)} />}
          {source.isFetching && !source.data && <Spin style={{ margin: 24 }} />}
          {source.data && <SourceViewer view={source.data} targetLine={line} onLine={showLine} />}
          {!chosen && !files.isPending && <Empty style={{ margin: 48 }} description={t.chooseFile} />}
        </section>
      </div>
    </div>
  );
}
