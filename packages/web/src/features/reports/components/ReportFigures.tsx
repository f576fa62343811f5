import { InfoCircleOutlined } from '@ant-design/icons';
import type { Report } from '@sextant/api';
import { Card, Col, Row, Statistic, Tooltip } from 'antd';
import { fill, useTexts } from '../../../lib/i18n.tsx';
import { reportTexts } from '../texts.ts';
import { countsStatements } from './counter-labels.ts';
import { CountOf, GradeValue } from './GradeValue.tsx';

type FigureName = keyof (typeof reportTexts)['en']['figures'];
type Figure = { name: FigureName; value: number | null; covered: number | null; total: number | null; hint?: boolean };

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
    { name: 'lines', value: r.lineCoverage, covered: r.lineCovered, total: r.lineTotal },
    { name: 'branches', value: r.branchCoverage, covered: r.branchCovered, total: r.branchTotal },
    { name: 'methods', value: r.methodCoverage, covered: r.methodCovered, total: r.methodTotal },
    {
      name: countsStatements(r) ? 'statements' : 'instructions',
      value: r.instructionCoverage,
      covered: r.instructionCovered,
      total: r.instructionTotal,
    },
    { name: 'complexity', value: r.cxty, covered: r.complexityCovered, total: r.complexityTotal },
    { name: 'classes', value: r.classCoverage, covered: r.classCovered, total: r.classTotal },
  );
  return list;
}

/** The report's figures in grade colours; for an incremental report they count changed methods only. */
export function ReportFigures({ report }: { report: Report }) {
  const t = useTexts(reportTexts);
  return (
    <Row gutter={[12, 12]}>
      {figuresOf(report).map((f) => {
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
              <CountOf covered={f.covered} total={f.total} />
            </Card>
          </Col>
        );
      })}
      <Col xs={12} sm={8} md={6} xl={3}>
        <Card size="small" aria-label={t.openRisks}>
          <Statistic title={t.openRisks} value={report.riskCount} />
        </Card>
      </Col>
    </Row>
  );
}
