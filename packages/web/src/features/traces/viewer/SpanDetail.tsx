import type { TraceSpan } from '@sextant/api';
import { Collapse, Descriptions, Empty, Table, Tag, Typography } from 'antd';
import { useTexts } from '../../../lib/i18n.tsx';
import { traceTexts } from '../texts.ts';
import { formatMs } from '../url.ts';
import { coverageHref } from './coverage-link.ts';

type Attributes = Record<string, unknown>;
const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function AttributeTable({ attributes }: { attributes: Attributes }) {
  const rows = Object.entries(attributes).map(([key, value]) => ({ key, value: text(value) }));
  return (
    <Table
      size="small"
      rowKey="key"
      pagination={false}
      showHeader={false}
      dataSource={rows}
      columns={[
        { dataIndex: 'key', width: '40%', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
        { dataIndex: 'value', render: (v: string) => <Typography.Text copyable>{v}</Typography.Text> },
      ]}
    />
  );
}

/** One span: its facts, exception stack, attributes, resource, events and links. */
export function SpanDetail({
  span,
  traceStartNs,
  appOrigin,
}: {
  span: TraceSpan;
  traceStartNs: bigint;
  /** Where the app is: a span's method links to its coverage there. */
  appOrigin: string;
}) {
  const t = useTexts(traceTexts).viewer;
  const offsetMs = (ns: string) => formatMs(Number(BigInt(ns) - traceStartNs) / 1e6);
  const code = span.code ? [span.code.function, span.code.file && `${span.code.file}:${span.code.line ?? ''}`] : [];
  const sections = [
    {
      key: 'attributes',
      label: `${t.attributes} (${Object.keys(span.attributes).length})`,
      children: <AttributeTable attributes={span.attributes} />,
    },
    { key: 'resource', label: t.resource, children: <AttributeTable attributes={span.resource} /> },
    {
      key: 'events',
      label: `${t.events} (${span.events.length})`,
      children: span.events.length ? (
        span.events.map((e) => (
          <div key={`${e.timeNs}-${e.name}`} style={{ marginBottom: 8 }}>
            <Typography.Text strong>{e.name}</Typography.Text> <Tag>{offsetMs(e.timeNs)}</Tag>
            <AttributeTable attributes={e.attributes} />
          </div>
        ))
      ) : (
        <Typography.Text type="secondary">{t.none}</Typography.Text>
      ),
    },
    {
      key: 'links',
      label: `${t.links} (${span.links.length})`,
      children: span.links.length ? (
        span.links.map((l) => (
          <div key={`${l.traceId}-${l.spanId}`}>
            <Typography.Text code>{`${l.traceId} / ${l.spanId}`}</Typography.Text>
            <AttributeTable attributes={l.attributes} />
          </div>
        ))
      ) : (
        <Typography.Text type="secondary">{t.none}</Typography.Text>
      ),
    },
  ];
  return (
    <div>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {span.name}
      </Typography.Title>
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t.duration}>{formatMs(Number(BigInt(span.durationNs)) / 1e6)}</Descriptions.Item>
        <Descriptions.Item label={t.status}>
          <Tag color={span.status === 'error' ? 'error' : 'default'}>{span.status}</Tag> {span.statusMessage}
        </Descriptions.Item>
        <Descriptions.Item label={t.kind}>{span.kind}</Descriptions.Item>
        <Descriptions.Item label={t.version}>{span.appVersion ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t.testCase}>{span.testCase ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t.code}>
          {code.filter(Boolean).join(' · ') || '—'}
          {span.code?.coverage && (
            <>
              {' '}
              <Typography.Link
                href={coverageHref(appOrigin, span.code.coverage)}
                target="_blank"
                rel="noopener noreferrer"
                data-testid="span-coverage-link"
              >
                {t.coverage}
              </Typography.Link>
            </>
          )}
        </Descriptions.Item>
      </Descriptions>
      {span.exception && (
        <div style={{ marginTop: 12 }}>
          <Typography.Text type="danger" strong>
            {t.exception}: {span.exception.type} {span.exception.message}
          </Typography.Text>
          {span.exception.stack && (
            <pre style={{ fontSize: 11, maxHeight: 240, overflow: 'auto', whiteSpace: 'pre-wrap' }}>
              {span.exception.stack}
            </pre>
          )}
        </div>
      )}
      <Collapse size="small" style={{ marginTop: 12 }} defaultActiveKey={['attributes']} items={sections} />
    </div>
  );
}

export function NoSpanChosen() {
  const t = useTexts(traceTexts).viewer;
  return <Empty description={t.pickSpan} />;
}
