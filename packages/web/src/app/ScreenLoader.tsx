import { WarningFilled } from '@ant-design/icons';
import type { Screen } from '@sextant/api';
import { Button, Space, Spin, theme } from 'antd';
import { useEffect, useState } from 'react';
import { ChunkLoadError, loadChunk } from '../lib/chunk-loader.ts';
import { useTexts } from '../lib/i18n.tsx';
import { importerFor, type ScreenComponent } from './screen-registry.ts';
import { appTexts } from './texts.ts';

const loaded = new Map<string, ScreenComponent>();

type State =
  | { status: 'loading' }
  | { status: 'ready'; Component: ScreenComponent }
  | { status: 'failed'; timedOut: boolean };

/** Loads a screen's chunk; a chunk that fails (or passes 120 s) shows an error with a retry. */
export function ScreenLoader({ screen }: { screen: Screen }) {
  const cached = loaded.get(screen.name);
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<State>(cached ? { status: 'ready', Component: cached } : { status: 'loading' });

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the Retry button's trigger to import again
  useEffect(() => {
    const known = loaded.get(screen.name);
    if (known) {
      setState({ status: 'ready', Component: known });
      return;
    }
    let live = true;
    setState({ status: 'loading' });
    loadChunk(importerFor(screen.name)).then(
      (module) => {
        loaded.set(screen.name, module.default);
        if (live) setState({ status: 'ready', Component: module.default });
      },
      (error: Error) => {
        if (live) setState({ status: 'failed', timedOut: error instanceof ChunkLoadError && error.timedOut });
      },
    );
    return () => {
      live = false;
    };
  }, [screen.name, attempt]);

  if (state.status === 'ready') return <state.Component screen={screen} />;
  if (state.status === 'loading') {
    return (
      <div className="screen-loading">
        <Spin size="large" />
      </div>
    );
  }
  return <LoadFailed timedOut={state.timedOut} onRetry={() => setAttempt((n) => n + 1)} />;
}

/**
 * Laid out like antd's Result (status warning) without importing it: Result carries its 404/403/500
 * illustrations into the first load, and this view must not need another chunk.
 */
function LoadFailed({ timedOut, onRetry }: { timedOut: boolean; onRetry: () => void }) {
  const t = useTexts(appTexts);
  const { token } = theme.useToken();
  return (
    <div role="alert" style={{ padding: '48px 32px', textAlign: 'center' }}>
      <WarningFilled style={{ fontSize: 72, color: token.colorWarning }} />
      <div style={{ marginTop: 24, fontSize: token.fontSizeHeading4, color: token.colorTextHeading }}>
        {timedOut ? t.timedOut : t.failed}
      </div>
      <div style={{ marginTop: 8, color: token.colorTextDescription }}>{t.checkConnection}</div>
      <Space style={{ marginTop: 24 }}>
        <Button type="primary" onClick={onRetry}>
          {t.retry}
        </Button>
        <Button onClick={() => window.location.reload()}>{t.reload}</Button>
      </Space>
    </div>
  );
}
