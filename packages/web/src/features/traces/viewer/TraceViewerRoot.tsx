import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import { useEffect } from 'react';
import { LocaleProvider, useLocale } from '../../../lib/i18n.tsx';
import { appOrigin } from './coverage-link.ts';
import { ViewerApp } from './ViewerApp.tsx';

const queryClient = new QueryClient();

/**
 * `/trace/{id}?appId=…&lang=…&from=…`: the link from the app names the trace, its app, the reader's
 * language and the app's own address (links back to coverage reports).
 */
function readLink() {
  const id = decodeURIComponent(window.location.pathname.replace(/^\/trace\//, '').replace(/\/$/, ''));
  const params = new URLSearchParams(window.location.search);
  return {
    traceId: id,
    appId: params.get('appId'),
    lang: params.get('lang'),
    appOrigin: appOrigin(params.get('from'), window.location),
  };
}

function LanguageOfLink({ lang }: { lang: string | null }) {
  const { locale, setLocale } = useLocale();
  useEffect(() => {
    if ((lang === 'en' || lang === 'zh') && lang !== locale) setLocale(lang);
  }, [lang, locale, setLocale]);
  return null;
}

export function TraceViewerRoot() {
  const link = readLink();
  return (
    <QueryClientProvider client={queryClient}>
      <LocaleProvider>
        <LanguageOfLink lang={link.lang} />
        <ConfigProvider theme={{ token: { colorPrimary: '#7367f0', colorLink: '#7367f0', borderRadius: 6 } }}>
          <AntApp>
            <ViewerApp traceId={link.traceId} appId={link.appId} appOrigin={link.appOrigin} />
          </AntApp>
        </ConfigProvider>
      </LocaleProvider>
    </QueryClientProvider>
  );
}
