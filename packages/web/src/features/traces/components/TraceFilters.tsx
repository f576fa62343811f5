import { PATHS } from '@sextant/api';
import { DatePicker, Input, InputNumber, Select, Space } from 'antd';
import dayjs from 'dayjs';
import { useNamedOptions } from '../../../lib/admin-options.ts';
import { useTexts } from '../../../lib/i18n.tsx';
import { traceTexts } from '../texts.ts';
import type { TraceSearch } from '../url.ts';

type Props = { search: TraceSearch; onSearch: (next: TraceSearch) => void };

/** App, service, interface, status, duration range, time range, attribute key=value, test case. */
export function TraceFilters({ search, onSearch }: Props) {
  const t = useTexts(traceTexts).search;
  const apps = useNamedOptions(PATHS.apps);
  const set = (key: keyof TraceSearch, value: unknown) =>
    onSearch({ ...search, [key]: value === '' || value === null ? undefined : value });
  const text = (key: 'service' | 'interface' | 'attribute' | 'testCase', label: string, width: number) => (
    <Input.Search
      key={`${key}-${search[key] ?? ''}`}
      allowClear
      aria-label={label}
      placeholder={label}
      style={{ width }}
      defaultValue={search[key]}
      onSearch={(v) => set(key, v.trim())}
    />
  );
  return (
    <Space wrap style={{ marginBottom: 16 }}>
      <Select
        showSearch
        optionFilterProp="label"
        aria-label={t.app}
        placeholder={t.app}
        style={{ width: 180 }}
        value={search.appId}
        options={apps}
        onChange={(v) => set('appId', v)}
      />
      {text('service', t.service, 140)}
      {text('interface', t.interface, 200)}
      <Select
        allowClear
        aria-label={t.status}
        placeholder={t.status}
        style={{ width: 110 }}
        value={search.status}
        options={[
          { value: 'ok', label: t.ok },
          { value: 'error', label: t.error },
        ]}
        onChange={(v) => set('status', v)}
      />
      <InputNumber
        aria-label={t.minDuration}
        placeholder={t.minDuration}
        min={0}
        style={{ width: 120 }}
        value={search.minDurationMs}
        onChange={(v) => set('minDurationMs', v)}
      />
      <InputNumber
        aria-label={t.maxDuration}
        placeholder={t.maxDuration}
        min={0}
        style={{ width: 120 }}
        value={search.maxDurationMs}
        onChange={(v) => set('maxDurationMs', v)}
      />
      <DatePicker.RangePicker
        showTime
        aria-label={t.timeRange}
        value={search.from && search.to ? [dayjs(search.from), dayjs(search.to)] : null}
        onChange={(range) =>
          onSearch({
            ...search,
            from: range?.[0]?.toISOString() ?? undefined,
            to: range?.[1]?.toISOString() ?? undefined,
          })
        }
      />
      {text('attribute', t.attribute, 200)}
      {text('testCase', t.testCase, 140)}
    </Space>
  );
}
