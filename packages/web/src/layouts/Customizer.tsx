import { Button, Divider, Drawer, Radio, Space, Switch, Typography } from 'antd';
import {
  CONTENT_WIDTHS,
  FOOTER_TYPES,
  LAYOUTS,
  NAVBAR_TYPES,
  type Preferences,
  SKINS,
  TRANSITIONS,
  usePreferences,
} from '../lib/preferences.tsx';

const LABELS: Record<string, string> = {
  light: 'Light',
  dark: 'Dark',
  'semi-dark': 'Semi dark',
  bordered: 'Bordered',
  vertical: 'Vertical',
  horizontal: 'Horizontal',
  full: 'Full width',
  boxed: 'Boxed',
  floating: 'Floating',
  sticky: 'Sticky',
  static: 'Static',
  hidden: 'Hidden',
  'zoom-fade': 'Zoom fade',
  fade: 'Fade',
  'fade-bottom': 'Fade bottom',
  none: 'None',
};

function Choice<K extends keyof Preferences>(props: { label: string; field: K; options: readonly string[] }) {
  const prefs = usePreferences();
  return (
    <div className="customizer-row">
      <Typography.Text strong>{props.label}</Typography.Text>
      <Radio.Group
        aria-label={props.label}
        value={prefs[props.field]}
        onChange={(e) => prefs.update({ [props.field]: e.target.value } as Partial<Preferences>)}
        options={props.options.map((o) => ({ value: o, label: LABELS[o] ?? o }))}
        optionType="button"
        size="small"
      />
    </div>
  );
}

export function Customizer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const prefs = usePreferences();
  return (
    <Drawer title="Theme customizer" open={open} onClose={onClose} size={360}>
      <Typography.Paragraph type="secondary">Kept in this browser only.</Typography.Paragraph>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Choice label="Skin" field="skin" options={SKINS} />
        <Choice label="Layout" field="layout" options={LAYOUTS} />
        <Choice label="Content width" field="contentWidth" options={CONTENT_WIDTHS} />
        <Divider />
        <Choice label="Navbar" field="navbarType" options={NAVBAR_TYPES} />
        <Choice label="Footer" field="footerType" options={FOOTER_TYPES} />
        <Choice label="Route transition" field="routerTransition" options={TRANSITIONS} />
        <div className="customizer-row">
          <Typography.Text strong>Scroll-to-top button</Typography.Text>
          <Switch
            aria-label="Scroll-to-top button"
            checked={prefs.scrollTop}
            onChange={(scrollTop) => prefs.update({ scrollTop })}
          />
        </div>
        <Divider />
        <Button onClick={prefs.reset}>Reset to defaults</Button>
      </Space>
    </Drawer>
  );
}
