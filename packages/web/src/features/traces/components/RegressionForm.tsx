import { type CreateRegression, PATHS, type RegressionSide } from '@sextant/api';
import { Button, DatePicker, Form, Input, Radio, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useNamedOptions } from '../../../lib/admin-options.ts';
import { useTexts } from '../../../lib/i18n.tsx';
import { traceTexts } from '../texts.ts';

type SideValues = { kind: 'version' | 'window'; version?: string; range?: [Dayjs, Dayjs] };
type Values = { appId: string; name: string; base: SideValues; candidate: SideValues };

const sideOf = (v: SideValues): RegressionSide =>
  v.kind === 'version'
    ? { kind: 'version', version: (v.version ?? '').trim() }
    : { kind: 'window', from: v.range?.[0]?.toISOString() ?? '', to: v.range?.[1]?.toISOString() ?? '' };

function SideFields({ name, label }: { name: 'base' | 'candidate'; label: string }) {
  const t = useTexts(traceTexts).regression;
  return (
    <Form.Item label={label} required>
      <Space wrap>
        <Form.Item name={[name, 'kind']} noStyle>
          <Radio.Group
            options={[
              { value: 'version', label: t.byVersion },
              { value: 'window', label: t.byWindow },
            ]}
          />
        </Form.Item>
        <Form.Item noStyle shouldUpdate>
          {({ getFieldValue }) =>
            getFieldValue([name, 'kind']) === 'window' ? (
              <Form.Item name={[name, 'range']} noStyle rules={[{ required: true }]}>
                <DatePicker.RangePicker showTime aria-label={`${label} ${t.byWindow}`} />
              </Form.Item>
            ) : (
              <Form.Item name={[name, 'version']} noStyle rules={[{ required: true }]}>
                <Input aria-label={`${label} ${t.byVersion}`} placeholder={t.version} style={{ width: 160 }} />
              </Form.Item>
            )
          }
        </Form.Item>
      </Space>
    </Form.Item>
  );
}

/** A new regression run: app, name, base and candidate (each a version or a time window). */
export function RegressionForm({ busy, onCreate }: { busy: boolean; onCreate: (input: CreateRegression) => void }) {
  const t = useTexts(traceTexts).regression;
  const apps = useNamedOptions(PATHS.apps);
  return (
    <Form<Values>
      layout="inline"
      style={{ marginBottom: 16, rowGap: 8 }}
      initialValues={{ base: { kind: 'version' }, candidate: { kind: 'version' } }}
      onFinish={(v) => onCreate({ appId: v.appId, name: v.name, base: sideOf(v.base), candidate: sideOf(v.candidate) })}
    >
      <Form.Item name="appId" label={t.app} rules={[{ required: true }]}>
        <Select showSearch optionFilterProp="label" options={apps} style={{ width: 180 }} aria-label={t.app} />
      </Form.Item>
      <Form.Item name="name" label={t.name} rules={[{ required: true, whitespace: true }]}>
        <Input style={{ width: 180 }} aria-label={t.name} />
      </Form.Item>
      <SideFields name="base" label={t.base} />
      <SideFields name="candidate" label={t.candidate} />
      <Form.Item>
        <Button type="primary" htmlType="submit" loading={busy}>
          {t.run}
        </Button>
      </Form.Item>
    </Form>
  );
}
