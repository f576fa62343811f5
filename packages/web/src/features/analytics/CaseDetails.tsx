import type { CaseAnalyticRow, MethodRef } from '@sextant/api';
import { Col, List, Row, Typography } from 'antd';
import { fill, useTexts } from '../../lib/i18n.tsx';
import { methodLabel, useJvmWords } from '../../lib/jvm-words.ts';
import { useCaseMethods } from './api/get-case-analytics.ts';
import { casesTexts } from './cases-texts.ts';
import type { useAnalyticsUrl } from './url.ts';

/** One case's lists, read when its row opens. */
export function CaseDetails({
  row,
  filter,
}: {
  row: CaseAnalyticRow;
  filter: ReturnType<typeof useAnalyticsUrl>['filter'];
}) {
  const t = useTexts(casesTexts);
  const words = useJvmWords();
  const methods = useCaseMethods(filter, row.appId, row.caseKey);
  const list = (title: string, items: MethodRef[] | undefined) => (
    <Col xs={24} xl={12}>
      <Typography.Text strong>{title}</Typography.Text>
      <List
        size="small"
        loading={methods.isLoading}
        dataSource={items ?? []}
        locale={{ emptyText: t.none }}
        renderItem={(m) => (
          <List.Item>
            <Typography.Text code>{methodLabel(m, words)}</Typography.Text>{' '}
            <Typography.Text type="secondary">{m.filePath}</Typography.Text>
          </List.Item>
        )}
      />
    </Col>
  );
  return (
    <Row gutter={[16, 8]}>
      {list(t.aloneMethods, methods.data?.alone)}
      {list(fill(t.changedOf, { version: methods.data?.latestVersion ?? '—' }), methods.data?.changed)}
    </Row>
  );
}
