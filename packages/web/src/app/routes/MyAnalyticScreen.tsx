import type { Screen } from '@sextant/api';
import { MyCoverageCard } from '../../features/analytics/MyCoverageCard.tsx';
import { MyAnalytic } from '../../features/risks/MyAnalyticPage.tsx';

/** My analytics: the analytics feature's changed methods over time above the risks feature's lists. */
export default function MyAnalyticScreen({ screen }: { screen: Screen }) {
  return <MyAnalytic screen={screen} coverage={<MyCoverageCard />} />;
}
