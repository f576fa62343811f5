import type { RiskItem } from '@sextant/api';
import { Drawer, Empty, Timeline, Typography } from 'antd';
import { fill, useTexts } from '../../../lib/i18n.tsx';
import { useRiskHistory } from '../api/get-history.ts';
import { riskTexts } from '../texts.ts';

/** Who moved the item from which state to which, when and why. */
export function HistoryDrawer({ item, onClose }: { item: RiskItem | null; onClose: () => void }) {
  const t = useTexts(riskTexts);
  const history = useRiskHistory(item?.id ?? null);
  const entries = history.data ?? [];
  return (
    <Drawer
      open={item !== null}
      onClose={onClose}
      width={480}
      title={item ? fill(t.historyDrawer.title, { method: item.methodName }) : ''}
    >
      {entries.length === 0 && !history.isLoading ? (
        <Empty description={t.historyDrawer.empty} />
      ) : (
        <Timeline
          items={entries.map((e) => ({
            key: `${e.at}-${e.toState}`,
            children: (
              <>
                <Typography.Text strong>
                  {e.fromState ? `${t.states[e.fromState]} → ` : ''}
                  {t.states[e.toState]}
                  {e.judgment ? ` · ${t.judgments[e.judgment]}` : ''}
                </Typography.Text>
                <br />
                <Typography.Text type="secondary">
                  {new Date(e.at).toLocaleString()} · {e.actorName ?? t.historyDrawer.byReport}
                </Typography.Text>
                {e.reason && <div>{e.reason}</div>}
              </>
            ),
          }))}
        />
      )}
    </Drawer>
  );
}
