import { PATHS } from '@sextant/api';
import { DatePicker, Select, Space } from 'antd';
import dayjs from 'dayjs';
import { useNamedOptions } from '../../../lib/admin-options.ts';
import { useTexts } from '../../../lib/i18n.tsx';
import type { WindowSearch } from '../api/interfaces.ts';
import { traceTexts } from '../texts.ts';

/** An app and a time window (default: the last 24 hours), kept in the URL. */
export function WindowFilters({ search, onSearch }: { search: WindowSearch; onSearch: (next: WindowSearch) => void }) {
  const t = useTexts(traceTexts).search;
  const apps = useNamedOptions(PATHS.apps);
  return (
    <Space wrap style={{ marginBottom: 16 }}>
      <Select
        showSearch
        optionFilterProp="label"
        aria-label={t.app}
        placeholder={t.app}
        style={{ width: 200 }}
        value={search.appId}
        options={apps}
        onChange={(appId) => onSearch({ ...search, appId })}
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
    </Space>
  );
}

export function readWindow(params: URLSearchParams): WindowSearch {
  const search: WindowSearch = {};
  for (const key of ['appId', 'from', 'to'] as const) {
    const value = params.get(key);
    if (value) search[key] = value;
  }
  return search;
}

export function writeWindow(search: WindowSearch): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) if (value) params.set(key, value);
  return params;
}
