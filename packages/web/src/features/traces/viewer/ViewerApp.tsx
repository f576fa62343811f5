import { PATHS, pathTo, TraceDetailSchema } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Layout, Space, Spin, Tag, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { ApiError, createApiClient } from '../../../lib/api-client.ts';
import { fill, useTexts } from '../../../lib/i18n.tsx';
import { traceTexts } from '../texts.ts';
import { formatMs } from '../url.ts';
import { NoSpanChosen, SpanDetail } from './SpanDetail.tsx';
import { Waterfall } from './Waterfall.tsx';
import { buildTraceModel } from './waterfall-model.ts';

/**
 * The viewer's calls carry no token: the session the app handed over travels as the viewer
 * port's cookie (same origin, so fetch sends it), and the viewer cannot refresh it.
 */
const noTokens = { accessToken: () => null, refreshToken: () => null, setTokens: () => {}, clear: () => {} };
const api = createApiClient({ store: noTokens, onSessionExpired: () => {} });

function useTrace(traceId: string, appId: string | null) {
  return useQuery({
    queryKey: ['trace', traceId, appId],
    queryFn: () => api.get(pathTo(PATHS.trace, { traceId }), TraceDetailSchema, { query: { appId: appId ?? '' } }),
    enabled: Boolean(appId),
    retry: false,
  });
}

/** The trace viewer (specification point 2, its own port): `/trace/{id}?appId=`. */
export function ViewerApp({ traceId, appId, appOrigin }: { traceId: string; appId: string | null; appOrigin: string }) {
  const t = useTexts(traceTexts).viewer;
  const trace = useTrace(traceId, appId);
  const model = useMemo(() => (trace.data ? buildTraceModel(trace.data.spans) : null), [trace.data]);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [selected, setSelected] = useState<string | null>(null);
  const toggle = useCallback(
    (id: string) =>
      setCollapsed((current) => {
        const next = new Set(current);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  if (!appId) return <Alert type="error" message={t.noApp} />;
  if (trace.isPending) return <Spin tip={t.loading} />;
  if (trace.error || !model) {
    const code = trace.error instanceof ApiError ? trace.error.code : 0;
    const message = code === 401 || code === 403 ? t.signedOut : code === 404 ? t.notFound : t.failed;
    return <Alert type={code === 404 ? 'warning' : 'error'} message={message} />;
  }
  const parents = [...model.spans.values()].filter((s) => s.childIds.length > 0).map((s) => s.span.spanId);
  const chosen = selected ? model.spans.get(selected) : undefined;
  return (
    <Layout style={{ minHeight: '100vh', padding: 16 }}>
      <Space style={{ marginBottom: 12 }} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {fill(t.title, { id: traceId })}
        </Typography.Title>
        <Tag>{fill(t.spans, { count: model.order.length })}</Tag>
        <Tag>{fill(t.services, { count: model.services.length })}</Tag>
        <Tag color="purple">{`${t.duration}: ${formatMs(model.totalMs)}`}</Tag>
        <Tag color="#7367f0">{t.criticalPath}</Tag>
        <Button size="small" onClick={() => setCollapsed(new Set())}>
          {t.expandAll}
        </Button>
        <Button size="small" onClick={() => setCollapsed(new Set(parents))}>
          {t.collapseAll}
        </Button>
      </Space>
      <div style={{ display: 'flex', gap: 12, alignItems: 'flex-start' }}>
        <Card size="small" style={{ flex: 3, minWidth: 0 }} styles={{ body: { padding: 0 } }}>
          <Waterfall
            model={model}
            collapsed={collapsed}
            onToggle={toggle}
            selected={selected}
            onSelect={setSelected}
            height={Math.max(320, window.innerHeight - 120)}
          />
        </Card>
        <Card size="small" style={{ flex: 2, minWidth: 0, maxHeight: window.innerHeight - 100, overflow: 'auto' }}>
          {chosen ? (
            <SpanDetail span={chosen.span} traceStartNs={model.startNs} appOrigin={appOrigin} />
          ) : (
            <NoSpanChosen />
          )}
        </Card>
      </div>
    </Layout>
  );
}
