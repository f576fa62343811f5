import { InfoCircleOutlined } from '@ant-design/icons';
import type { Report } from '@sextant/api';
import { Card, Col, Row, Statistic, Tooltip } from 'antd';
import { CountOf, GradeValue } from './GradeValue.tsx';

type Figure = { title: string; value: number | null; covered: number | null; total: number | null; hint?: string };

function figuresOf(r: Report): Figure[] {
  const list: Figure[] = [];
  if (r.coverageType === 'incremental') {
    list.push({
      title: 'Changed lines',
      value: r.diffLineCoverage,
      covered: r.diffLineCovered,
      total: r.diffLineTotal,
      hint: 'Covered changed coverable lines (diff-cover definition).',
    });
  }
  list.push(
    { title: 'Lines', value: r.lineCoverage, covered: r.lineCovered, total: r.lineTotal },
    { title: 'Branches', value: r.branchCoverage, covered: r.branchCovered, total: r.branchTotal },
    { title: 'Methods', value: r.methodCoverage, covered: r.methodCovered, total: r.methodTotal },
    { title: 'Instructions', value: r.instructionCoverage, covered: r.instructionCovered, total: r.instructionTotal },
    { title: 'Complexity', value: r.cxty, covered: r.complexityCovered, total: r.complexityTotal },
    { title: 'Classes', value: r.classCoverage, covered: r.classCovered, total: r.classTotal },
  );
  return list;
}

/** The report's figures in grade colours; for an incremental report they count changed methods only. */
export function ReportFigures({ report }: { report: Report }) {
  return (
    <Row gutter={[12, 12]}>
      {figuresOf(report).map((f) => (
        <Col key={f.title} xs={12} sm={8} md={6} xl={3}>
          <Card size="small" className="report-figure" aria-label={`${f.title} coverage`}>
            <Statistic
              title={
                f.hint ? (
                  <Tooltip title={f.hint}>
                    {f.title} <InfoCircleOutlined />
                  </Tooltip>
                ) : (
                  f.title
                )
              }
              valueRender={() => <GradeValue value={f.value} strong />}
            />
            <CountOf covered={f.covered} total={f.total} />
          </Card>
        </Col>
      ))}
      <Col xs={12} sm={8} md={6} xl={3}>
        <Card size="small" aria-label="Open risk items">
          <Statistic title="Open risk items" value={report.riskCount} />
        </Card>
      </Col>
    </Row>
  );
}
