import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, theme } from 'antd';
import { Outlet } from 'react-router';
import { ApiError } from '../lib/api-client.ts';
import { LocaleProvider } from '../lib/i18n.tsx';
import { PreferencesProvider, usePreferences } from '../lib/preferences.tsx';
import { SessionProvider } from '../lib/session.tsx';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // 4xx answers are decisions, not glitches: do not ask again.
      retry: (count, error) => !(error instanceof ApiError && error.code < 500) && count < 2,
    },
  },
});

function Themed() {
  const { skin } = usePreferences();
  const dark = skin === 'dark';
  return (
    <ConfigProvider
      theme={{
        algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
        // Links take the theme's purple, not the kit's default blue (colorLink follows colorInfo otherwise).
        token: { colorPrimary: '#7367f0', colorLink: '#7367f0', borderRadius: 6 },
        components: skin === 'bordered' ? { Card: { boxShadow: 'none' } } : undefined,
      }}
    >
      {/* Toasts stay 3000 ms and show no progress bar (specification point 9). */}
      <AntApp message={{ duration: 3 }} notification={{ duration: 3, showProgress: false }}>
        <div className={`skin-${skin}`}>
          <Outlet />
        </div>
      </AntApp>
    </ConfigProvider>
  );
}

export function AppRoot() {
  return (
    <QueryClientProvider client={queryClient}>
      <PreferencesProvider>
        <LocaleProvider>
          <SessionProvider>
            <Themed />
          </SessionProvider>
        </LocaleProvider>
      </PreferencesProvider>
    </QueryClientProvider>
  );
}
