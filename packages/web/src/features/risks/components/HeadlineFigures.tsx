import { Card, Col, Row, Statistic } from 'antd';
import { fill, useTexts } from '../../../lib/i18n.tsx';
import { useRiskHeadline } from '../api/get-headline.ts';
import { riskTexts } from '../texts.ts';
import type { RiskSearch } from '../url.ts';

const DAY_MS = 86_400_000;

/** The home screen's four figures, for the same filters as the list below them. */
export function HeadlineFigures({ search }: { search: RiskSearch }) {
  const t = useTexts(riskTexts);
  const headline = useRiskHeadline(search).data;
  const oldest = headline?.oldestOpenAt
    ? fill(t.headline.daysAgo, { days: Math.floor((Date.now() - Date.parse(headline.oldestOpenAt)) / DAY_MS) })
    : t.headline.none;
  const figures = [
    { title: t.headline.open, value: headline?.open },
    { title: t.headline.newThisWeek, value: headline?.newThisWeek },
    { title: t.headline.resolvedThisWeek, value: headline?.resolvedThisWeek },
    { title: t.headline.oldestOpen, value: oldest },
  ];
  return (
    <Row gutter={16} style={{ marginBottom: 16 }}>
      {figures.map((f) => (
        <Col key={f.title} xs={12} md={6}>
          <Card size="small">
            <Statistic title={f.title} value={f.value ?? '—'} loading={!headline} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}
