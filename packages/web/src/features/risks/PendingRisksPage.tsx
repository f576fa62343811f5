import type { Screen } from '@sextant/api';
import { Card, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { useTexts } from '../../lib/i18n.tsx';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { RiskListView } from './components/RiskListView.tsx';
import { riskTexts } from './texts.ts';
import { type RiskSearch, readRiskSearch, writeRiskSearch } from './url.ts';

const DEFAULTS: RiskSearch = { state: 'pending,judged' };

/** /dashboard/pendingrisks: items waiting for a decision and judged ones (the server puts overdue first). */
export default function PendingRisksPage({ screen }: { screen: Screen }) {
  const t = useTexts(riskTexts);
  const title = useScreenTitle(screen);
  const [params, setParams] = useSearchParams();
  const search = readRiskSearch(params, DEFAULTS);
  const setSearch = (next: RiskSearch) => setParams(writeRiskSearch(next, DEFAULTS), { replace: true });
  return (
    <Card>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {title}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t.pending.intro}</Typography.Paragraph>
      <RiskListView search={search} onSearch={setSearch} />
    </Card>
  );
}
