import type { Screen } from '@sextant/api';
import { Card, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { HeadlineFigures } from './components/HeadlineFigures.tsx';
import { RiskListView } from './components/RiskListView.tsx';
import { RiskTreemap } from './components/RiskTreemap.tsx';
import { type RiskSearch, readRiskSearch, writeRiskSearch } from './url.ts';

const DEFAULTS: RiskSearch = { state: 'observing,pending' };

/** The home screen (/dashboard/observingRiskyItems): what changed code goes out untested, whose, and what was decided. */
export default function ObservingRisksPage({ screen }: { screen: Screen }) {
  const title = useScreenTitle(screen);
  const [params, setParams] = useSearchParams();
  const search = readRiskSearch(params, DEFAULTS);
  const setSearch = (next: RiskSearch) => setParams(writeRiskSearch(next, DEFAULTS), { replace: true });
  return (
    <Card>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {title}
      </Typography.Title>
      <HeadlineFigures search={search} />
      <RiskTreemap search={search} />
      <RiskListView search={search} onSearch={setSearch} bulkAsk />
    </Card>
  );
}
