import type { Screen } from '@sextant/api';
import { Card, Empty, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { fill, useTexts } from '../../lib/i18n.tsx';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { useRisks } from './api/list-risks.ts';
import { ExceptionTable } from './components/ExceptionTable.tsx';
import { riskTexts } from './texts.ts';
import { type RiskSearch, readRiskSearch, writeRiskSearch } from './url.ts';

const DEFAULTS: RiskSearch = { kind: 'exception', sortBy: 'createdAt' };

/**
 * /dashboard/exceptionTraces: exceptions grouped by app, interface and exception type (the exception
 * risks the trace writer keeps); until traces arrive, says how to send them (issue 34).
 */
export default function ExceptionTracesPage({ screen }: { screen: Screen }) {
  const t = useTexts(riskTexts);
  const title = useScreenTitle(screen);
  const [params, setParams] = useSearchParams();
  const search = { ...readRiskSearch(params, DEFAULTS), kind: 'exception' as const };
  const setSearch = (next: RiskSearch) => setParams(writeRiskSearch(next, DEFAULTS), { replace: true });
  const list = useRisks(search);
  const endpoint = `${window.location.origin}/v1/traces`;
  const none = list.isSuccess && list.data.total === 0 && !search.state && !search.appId;
  return (
    <Card title={title}>
      {none ? (
        <Empty
          description={
            <>
              <Typography.Title level={5}>{t.exceptions.title}</Typography.Title>
              <Typography.Paragraph style={{ maxWidth: 640, margin: '0 auto' }}>
                {fill(t.exceptions.body, { endpoint })}
              </Typography.Paragraph>
            </>
          }
        />
      ) : (
        <ExceptionTable
          items={list.data?.items ?? []}
          total={list.data?.total ?? 0}
          loading={list.isFetching}
          search={search}
          onSearch={setSearch}
        />
      )}
    </Card>
  );
}
