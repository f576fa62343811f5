import { Layout } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useTexts } from '../lib/i18n.tsx';
import { usePreferences } from '../lib/preferences.tsx';
import { AppMenu } from './AppMenu.tsx';
import { Navbar } from './Navbar.tsx';
import { ScrollToTop } from './ScrollToTop.tsx';
import { layoutTexts } from './texts.ts';

// Its drawer, radio groups and switch are only needed once someone opens it.
const Customizer = lazy(() => import('./Customizer.tsx').then((module) => ({ default: module.Customizer })));

/** The main frame: vertical (side menu) or horizontal (top menu), shaped by the customizer. */
export function MainLayout() {
  const prefs = usePreferences();
  const t = useTexts(layoutTexts);
  const location = useLocation();
  const [customizing, setCustomizing] = useState(false);
  const [customizerUsed, setCustomizerUsed] = useState(false);
  const vertical = prefs.layout === 'vertical';
  const menuTheme = prefs.skin === 'dark' || prefs.skin === 'semi-dark' ? 'dark' : 'light';

  const content = (
    <>
      <Navbar
        menu={vertical ? undefined : <AppMenu mode="horizontal" />}
        onCustomize={() => {
          setCustomizerUsed(true);
          setCustomizing(true);
        }}
      />
      <Layout.Content className={`content content-${prefs.contentWidth}`}>
        <div key={location.pathname} className={`route-transition transition-${prefs.routerTransition}`}>
          <Outlet />
        </div>
      </Layout.Content>
      {prefs.footerType !== 'hidden' && (
        <Layout.Footer className={`footer footer-${prefs.footerType}`}>{t.footerText}</Layout.Footer>
      )}
    </>
  );

  return (
    <Layout className={`main-layout layout-${prefs.layout}`} data-layout={prefs.layout}>
      {vertical && (
        <Layout.Sider
          className="side-menu"
          width={250}
          collapsible
          collapsed={prefs.menuCollapsed}
          trigger={null}
          theme={menuTheme}
        >
          <div className="brand">{prefs.menuCollapsed ? t.brand.slice(0, 1) : t.brand}</div>
          <AppMenu mode="inline" />
        </Layout.Sider>
      )}
      <Layout className="main-column">{content}</Layout>
      {prefs.scrollTop && <ScrollToTop />}
      {customizerUsed && (
        <Suspense fallback={null}>
          <Customizer open={customizing} onClose={() => setCustomizing(false)} />
        </Suspense>
      )}
    </Layout>
  );
}
