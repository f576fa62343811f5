import type { Screen } from '@sextant/api';
import { Button, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { loadChunk } from '../lib/chunk-loader.ts';
import { importerFor, type ScreenComponent } from './screen-registry.ts';

const loaded = new Map<string, ScreenComponent>();

type State =
  | { status: 'loading' }
  | { status: 'ready'; Component: ScreenComponent }
  | { status: 'failed'; message: string };

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
        if (live) setState({ status: 'failed', message: error.message });
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
      title={state.message}
      subTitle="Check your connection; the rest of Sextant keeps working."
      extra={[
        <Button key="retry" type="primary" onClick={() => setAttempt((n) => n + 1)}>
          Retry
        </Button>,
        <Button key="reload" onClick={() => window.location.reload()}>
          Reload page
        </Button>,
      ]}
    />
  );
}
