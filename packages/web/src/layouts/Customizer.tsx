import { Button, Divider, Drawer, Radio, Space, Switch, Typography } from 'antd';
import { useTexts } from '../lib/i18n.tsx';
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
import { layoutTexts } from './texts.ts';

function Choice<K extends keyof Preferences>(props: { label: string; field: K; options: readonly string[] }) {
  const prefs = usePreferences();
  const labels: Record<string, string> = useTexts(layoutTexts).options;
  return (
    <div className="customizer-row">
      <Typography.Text strong>{props.label}</Typography.Text>
      <Radio.Group
        aria-label={props.label}
        value={prefs[props.field]}
        onChange={(e) => prefs.update({ [props.field]: e.target.value } as Partial<Preferences>)}
        options={props.options.map((o) => ({ value: o, label: labels[o] ?? o }))}
        optionType="button"
        size="small"
      />
    </div>
  );
}

export function Customizer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const prefs = usePreferences();
  const t = useTexts(layoutTexts);
  return (
    <Drawer title={t.customizer} open={open} onClose={onClose} size={360}>
      <Typography.Paragraph type="secondary">{t.customizerNote}</Typography.Paragraph>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Choice label={t.skin} field="skin" options={SKINS} />
        <Choice label={t.layout} field="layout" options={LAYOUTS} />
        <Choice label={t.contentWidth} field="contentWidth" options={CONTENT_WIDTHS} />
        <Divider />
        <Choice label={t.navbar} field="navbarType" options={NAVBAR_TYPES} />
        <Choice label={t.footer} field="footerType" options={FOOTER_TYPES} />
        <Choice label={t.transition} field="routerTransition" options={TRANSITIONS} />
        <div className="customizer-row">
          <Typography.Text strong>{t.scrollTop}</Typography.Text>
          <Switch
            aria-label={t.scrollTop}
            checked={prefs.scrollTop}
            onChange={(scrollTop) => prefs.update({ scrollTop })}
          />
        </div>
        <Divider />
        <Button onClick={prefs.reset}>{t.reset}</Button>
      </Space>
    </Drawer>
  );
}
