import type { Screen } from '@sextant/api';
import { Button, Result, Spin } from 'antd';
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
  const t = useTexts(appTexts);
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
  return (
    <Result
      status="warning"
      title={state.timedOut ? t.timedOut : t.failed}
      subTitle={t.checkConnection}
      extra={[
        <Button key="retry" type="primary" onClick={() => setAttempt((n) => n + 1)}>
          {t.retry}
        </Button>,
        <Button key="reload" onClick={() => window.location.reload()}>
          {t.reload}
        </Button>,
      ]}
    />
  );
}
