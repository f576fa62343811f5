import { InfoCircleOutlined } from '@ant-design/icons';
import type { Report } from '@sextant/api';
import { Card, Col, Row, Statistic, Tooltip, Typography } from 'antd';
import { fill, useTexts } from '../../../lib/i18n.tsx';
import { reportTexts } from '../texts.ts';
import { countsStatements } from './counter-labels.ts';
import { CountOf, GradeValue } from './GradeValue.tsx';

type FigureName = keyof (typeof reportTexts)['en']['figures'];
type Figure = {
  name: FigureName;
  value: number | null;
  covered: number | null;
  total: number | null;
  /** Issue 38: the upper bound where merged runs leave the figure a range; `value` is the lower bound's. */
  atMost?: number | null;
  hint?: boolean;
};

function figuresOf(r: Report): Figure[] {
  const list: Figure[] = [];
  if (r.coverageType === 'incremental') {
    list.push({
      name: 'changedLines',
      value: r.diffLineCoverage,
      covered: r.diffLineCovered,
      total: r.diffLineTotal,
      hint: true,
    });
  }
  list.push(
    { name: 'lines', value: r.lineCoverage, covered: r.lineCovered, total: r.lineTotal, atMost: r.lineCoveredAtMost },
    {
      name: 'branches',
      value: r.branchCoverage,
      covered: r.branchCovered,
      total: r.branchTotal,
      atMost: r.branchCoveredAtMost,
    },
    {
      name: 'methods',
      value: r.methodCoverage,
      covered: r.methodCovered,
      total: r.methodTotal,
      atMost: r.methodCoveredAtMost,
    },
    {
      name: countsStatements(r) ? 'statements' : 'instructions',
      value: r.instructionCoverage,
      covered: r.instructionCovered,
      total: r.instructionTotal,
      atMost: r.instructionCoveredAtMost,
    },
    {
      name: 'complexity',
      value: r.cxty,
      covered: r.complexityCovered,
      total: r.complexityTotal,
      atMost: r.complexityCoveredAtMost,
    },
    {
      name: 'classes',
      value: r.classCoverage,
      covered: r.classCovered,
      total: r.classTotal,
      atMost: r.classCoveredAtMost,
    },
  );
  return list;
}

const isRange = (f: Figure) => f.atMost !== null && f.atMost !== undefined && f.atMost > (f.covered ?? f.atMost);

/** Which figures are exact and which are ranges, said once under a merged report's figures. */
function RangedNote({ figures }: { figures: Figure[] }) {
  const t = useTexts(reportTexts);
  const counted = figures.filter((f) => f.total !== null && f.name !== 'changedLines');
  const ranged = counted.filter(isRange);
  if (ranged.length === 0) return null;
  const names = (list: Figure[]) => list.map((f) => t.figures[f.name]).join(', ');
  const exact = counted.filter((f) => !isRange(f));
  return (
    <Typography.Text type="secondary" className="ranged-note">
      {fill(t.rangedNote, { exact: names(exact) || '—', ranged: names(ranged) })}
    </Typography.Text>
  );
}

/** The report's figures in grade colours; for an incremental report they count changed methods only. */
export function ReportFigures({ report }: { report: Report }) {
  const t = useTexts(reportTexts);
  const figures = figuresOf(report);
  return (
    <Row gutter={[12, 12]}>
      {figures.map((f) => {
        const title = t.figures[f.name];
        return (
          <Col key={f.name} xs={12} sm={8} md={6} xl={3}>
            <Card size="small" className="report-figure" aria-label={fill(t.figureAria, { figure: title })}>
              <Statistic
                title={
                  f.hint ? (
                    <Tooltip title={t.changedLinesHint}>
                      {title} <InfoCircleOutlined />
                    </Tooltip>
                  ) : (
                    title
                  )
                }
                valueRender={() => <GradeValue value={f.value} strong />}
              />
              <CountOf covered={f.covered} total={f.total} coveredAtMost={f.atMost} />
            </Card>
          </Col>
        );
      })}
      <Col xs={12} sm={8} md={6} xl={3}>
        <Card size="small" aria-label={t.openRisks}>
          <Statistic title={t.openRisks} value={report.riskCount} />
        </Card>
      </Col>
      <Col span={24}>
        <RangedNote figures={figures} />
      </Col>
    </Row>
  );
}
