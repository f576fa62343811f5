import type { RiskItem } from '@sextant/api';
import { Alert, App, Button, Space } from 'antd';
import { useState } from 'react';
import { useErrorMessage } from '../../../lib/error-texts.ts';
import { fill, useTexts } from '../../../lib/i18n.tsx';
import { tableLoading } from '../../../lib/table-loading.ts';
import { useAskDecision } from '../api/decide.ts';
import { useRisks } from '../api/list-risks.ts';
import { riskTexts } from '../texts.ts';
import type { RiskSearch } from '../url.ts';
import { HistoryDrawer } from './HistoryDrawer.tsx';
import { JudgmentDrawer } from './JudgmentDrawer.tsx';
import { RiskFilters } from './RiskFilters.tsx';
import { RiskTable } from './RiskTable.tsx';

/** Filters, the grouped table, bulk "ask for a decision" and the judgment and history drawers. */
export function RiskListView(props: { search: RiskSearch; onSearch?: (next: RiskSearch) => void; bulkAsk?: boolean }) {
  const t = useTexts(riskTexts);
  const { message } = App.useApp();
  const errorMessage = useErrorMessage();
  const list = useRisks(props.search);
  const ask = useAskDecision();
  const [selected, setSelected] = useState<string[]>([]);
  const [judging, setJudging] = useState<RiskItem | null>(null);
  const [viewing, setViewing] = useState<RiskItem | null>(null);
  const onSearch = props.onSearch ?? (() => undefined);

  const askDecision = () =>
    ask.mutate(
      { ids: selected },
      {
        onSuccess: (answer) => {
          message.success(fill(t.asked, { count: answer.asked }));
          setSelected([]);
        },
        onError: (e) => message.error(errorMessage(e)),
      },
    );

  return (
    <>
      {props.onSearch && (
        <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
          <RiskFilters search={props.search} onSearch={onSearch} />
          {props.bulkAsk && (
            <Button disabled={selected.length === 0} loading={ask.isPending} onClick={askDecision}>
              {t.askDecision}
              {selected.length > 0 ? ` (${selected.length})` : ''}
            </Button>
          )}
        </Space>
      )}
      {list.error && <Alert type="error" showIcon message={errorMessage(list.error)} style={{ marginBottom: 16 }} />}
      <RiskTable
        items={list.data?.items ?? []}
        total={list.data?.total ?? 0}
        loading={tableLoading(list)}
        search={props.search}
        onSearch={onSearch}
        selected={props.bulkAsk ? selected : undefined}
        onSelect={props.bulkAsk ? setSelected : undefined}
        onJudge={setJudging}
        onHistory={setViewing}
      />
      <JudgmentDrawer item={judging} onClose={() => setJudging(null)} />
      <HistoryDrawer item={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
