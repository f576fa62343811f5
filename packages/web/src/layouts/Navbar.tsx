import {
  BgColorsOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  TranslationOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Button, Dropdown, Space, Tag, Typography } from 'antd';
import { lazy, type ReactNode, Suspense } from 'react';
import { useEditionLabels } from '../lib/edition-texts.ts';
import { LOCALE_LABELS, LOCALES, type Locale, useLocale, useTexts } from '../lib/i18n.tsx';
import { usePreferences } from '../lib/preferences.tsx';
import { useScreenTitle } from '../lib/screen-texts.ts';
import { useSession } from '../lib/session.tsx';
import { layoutTexts } from './texts.ts';
import { useCurrentScreen } from './useCurrentScreen.ts';

// The message centre (STOMP client, notification schemas with zod) loads after the first screen.
const MessageCentre = lazy(() =>
  import('../features/messages/MessageCentre.tsx').then((module) => ({ default: module.MessageCentre })),
);

export function Navbar({ menu, onCustomize }: { menu?: ReactNode; onCustomize: () => void }) {
  const { userData, settings, signOut } = useSession();
  const prefs = usePreferences();
  const screen = useCurrentScreen();
  const title = useScreenTitle(screen);
  const t = useTexts(layoutTexts);
  const editionLabels = useEditionLabels();
  const { locale, setLocale } = useLocale();
  const { saveLanguage } = useSession();
  return (
    <header className={`navbar navbar-${prefs.navbarType}`}>
      {prefs.layout === 'vertical' ? (
        <Button
          type="text"
          aria-label={prefs.menuCollapsed ? t.expandMenu : t.collapseMenu}
          icon={prefs.menuCollapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={() => prefs.update({ menuCollapsed: !prefs.menuCollapsed })}
        />
      ) : (
        <span className="brand">{t.brand}</span>
      )}
      {menu ?? (
        <Typography.Title level={5} className="navbar-title">
          {title}
        </Typography.Title>
      )}
      <Space className="navbar-actions">
        <Tag color="purple">{editionLabels[settings.licenseVersion]}</Tag>
        <Dropdown
          trigger={['click']}
          menu={{
            items: LOCALES.map((key) => ({ key, label: LOCALE_LABELS[key] })),
            selectable: true,
            selectedKeys: [locale],
            onClick: ({ key }) => {
              setLocale(key as Locale);
              void saveLanguage(key as Locale);
            },
          }}
        >
          <Button type="text" aria-label={t.language} icon={<TranslationOutlined />}>
            {locale === 'zh' ? '中' : 'EN'}
          </Button>
        </Dropdown>
        <Suspense fallback={null}>
          <MessageCentre />
        </Suspense>
        {prefs.customizer && (
          <Button type="text" aria-label={t.customizer} icon={<BgColorsOutlined />} onClick={onCustomize} />
        )}
        <Dropdown
          trigger={['click']}
          menu={{
            items: [{ key: 'signout', icon: <LogoutOutlined />, label: t.signOut }],
            onClick: ({ key }) => {
              if (key === 'signout') void signOut();
            },
          }}
        >
          <Button type="text" aria-label={t.account}>
            <Avatar size="small" icon={<UserOutlined />} /> {userData?.role}
          </Button>
        </Dropdown>
      </Space>
    </header>
  );
}
