import {
  BgColorsOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { EDITION_LABELS } from '@sextant/api';
import { Avatar, Button, Dropdown, Space, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { MessageCentre } from '../features/messages/MessageCentre.tsx';
import { usePreferences } from '../lib/preferences.tsx';
import { useSession } from '../lib/session.tsx';
import { useCurrentScreen } from './useCurrentScreen.ts';

export function Navbar({ menu, onCustomize }: { menu?: ReactNode; onCustomize: () => void }) {
  const { userData, settings, signOut } = useSession();
  const prefs = usePreferences();
  const screen = useCurrentScreen();
  return (
    <header className={`navbar navbar-${prefs.navbarType}`}>
      {prefs.layout === 'vertical' ? (
        <Button
          type="text"
          aria-label={prefs.menuCollapsed ? 'Expand menu' : 'Collapse menu'}
          icon={prefs.menuCollapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={() => prefs.update({ menuCollapsed: !prefs.menuCollapsed })}
        />
      ) : (
        <span className="brand">Sextant</span>
      )}
      {menu ?? (
        <Typography.Title level={5} className="navbar-title">
          {screen?.title}
        </Typography.Title>
      )}
      <Space className="navbar-actions">
        <Tag color="purple">{EDITION_LABELS[settings.licenseVersion]}</Tag>
        <MessageCentre />
        {prefs.customizer && (
          <Button type="text" aria-label="Theme customizer" icon={<BgColorsOutlined />} onClick={onCustomize} />
        )}
        <Dropdown
          trigger={['click']}
          menu={{
            items: [{ key: 'signout', icon: <LogoutOutlined />, label: 'Sign out' }],
            onClick: ({ key }) => {
              if (key === 'signout') void signOut();
            },
          }}
        >
          <Button type="text" aria-label="Account">
            <Avatar size="small" icon={<UserOutlined />} /> {userData?.role}
          </Button>
        </Dropdown>
      </Space>
    </header>
  );
}
