import type { Screen } from '@sextant/api';
import { ReportActivity } from '../../features/messages/components/ReportActivity.tsx';
import { ReportDetail } from '../../features/reports/ReportDetailPage.tsx';

/** The report detail composed with the message centre's activity panel (agents' heart-beats, progress). */
export default function ReportDetailScreen({ screen }: { screen: Screen }) {
  return <ReportDetail screen={screen} activity={(reportId) => <ReportActivity reportId={reportId} />} />;
}
