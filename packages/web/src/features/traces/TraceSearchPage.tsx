import type { Screen } from '@sextant/api';
import { App, Card, Empty } from 'antd';
import { useSearchParams } from 'react-router';
import { useLocale, useTexts } from '../../lib/i18n.tsx';
import { openInViewer } from '../../lib/open-in-viewer.ts';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { useSession } from '../../lib/session.tsx';
import { useTraceSearch } from './api/search-traces.ts';
import { DurationScatter } from './components/DurationScatter.tsx';
import { TraceFilters } from './components/TraceFilters.tsx';
import { TraceTable } from './components/TraceTable.tsx';
import { traceTexts } from './texts.ts';
import { readTraceSearch, type TraceSearch, writeTraceSearch } from './url.ts';

/** /otel/otel: trace search (issue 36); each trace opens in the viewer on its own port. */
export default function TraceSearchPage({ screen }: { screen: Screen }) {
  const t = useTexts(traceTexts).search;
  const title = useScreenTitle(screen);
  const { settings } = useSession();
  const { locale } = useLocale();
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const search = readTraceSearch(params);
  const found = useTraceSearch(search);
  const items = found.data?.items ?? [];
  const onSearch = (next: TraceSearch) => setParams(writeTraceSearch(next));
  const open = (traceId: string) => {
    if (!search.appId) return;
    openInViewer(settings.traceViewerUrl, traceId, search.appId, locale).catch(() => message.error(t.openFailed));
  };
  return (
    <Card title={title}>
      <TraceFilters search={search} onSearch={onSearch} />
      {search.appId ? (
        <>
          <DurationScatter items={items} onOpen={open} />
          <TraceTable items={items} loading={found.isFetching} onOpen={open} />
        </>
      ) : (
        <Empty description={t.pickApp} />
      )}
    </Card>
  );
}
