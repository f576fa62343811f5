import { AppstoreOutlined, DashboardOutlined, NodeIndexOutlined, SettingOutlined } from '@ant-design/icons';
import { Menu, type MenuProps } from 'antd';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { useTexts } from '../lib/i18n.tsx';
import { activeMenuKey, menuFor } from '../lib/menu.ts';
import { useMenuHighlight } from '../lib/menu-highlight.ts';
import { screenTexts } from '../lib/screen-texts.ts';
import { useSession } from '../lib/session.tsx';
import { layoutTexts } from './texts.ts';
import { useCurrentScreen } from './useCurrentScreen.ts';

const GROUP_ICONS = {
  dashboard: <DashboardOutlined />,
  system: <SettingOutlined />,
  tracing: <NodeIndexOutlined />,
};

export function AppMenu({ mode }: { mode: 'inline' | 'horizontal' }) {
  const { userData, settings } = useSession();
  const navigate = useNavigate();
  const screen = useCurrentScreen();
  const t = useTexts(layoutTexts);
  const titles: Record<string, string> = useTexts(screenTexts);
  const groups = useMemo(() => menuFor({ userData, edition: settings.licenseVersion }), [userData, settings]);
  const items: MenuProps['items'] = groups.map((group) => ({
    key: group.key,
    icon: GROUP_ICONS[group.key] ?? <AppstoreOutlined />,
    label: t.groups[group.key],
    children: group.screens.map((s) => ({ key: s.name, label: titles[s.name] ?? s.title, 'data-path': s.path })),
  }));
  const paths = new Map(groups.flatMap((g) => g.screens.map((s) => [s.name, s.path] as const)));
  const asked = useMenuHighlight();
  const selected = asked ?? activeMenuKey(screen);
  return (
    <Menu
      mode={mode}
      items={items}
      selectedKeys={selected ? [selected] : []}
      defaultOpenKeys={mode === 'inline' ? groups.map((g) => g.key) : undefined}
      onClick={({ key }) => {
        const path = paths.get(key);
        if (path) navigate(path);
      }}
      aria-label={t.mainMenu}
    />
  );
}
