import { PATHS } from '@sextant/api';
import { Button, Card, DatePicker, Input, Select, Space } from 'antd';
import dayjs from 'dayjs';
import { useNamedOptions } from '../../../lib/admin-options.ts';
import { useTexts } from '../../../lib/i18n.tsx';
import { analyticsTexts } from '../texts.ts';
import type { FilterKey, useAnalyticsUrl } from '../url.ts';

type Url = ReturnType<typeof useAnalyticsUrl>;

/** Team, app, project, version, test type, environment and period; each change writes the URL. */
export function FilterBar({ url, hide = [] }: { url: Url; hide?: FilterKey[] }) {
  const t = useTexts(analyticsTexts);
  const teams = useNamedOptions(PATHS.teams);
  const apps = useNamedOptions(PATHS.apps);
  const projects = useNamedOptions(PATHS.projects);
  const { filter, set } = url;
  const shown = (key: FilterKey) => !hide.includes(key);
  const pick = (key: FilterKey, options: { value: string; label: string }[], placeholder: string) => (
    <Select
      allowClear
      showSearch
      optionFilterProp="label"
      aria-label={placeholder}
      placeholder={placeholder}
      style={{ width: 180 }}
      options={options}
      value={filter[key] as string | undefined}
      onChange={(v: string | undefined) => set({ [key]: v })}
    />
  );
  const text = (key: 'version' | 'envType', placeholder: string) => (
    <Input.Search
      key={`${key}:${filter[key] ?? ''}`}
      allowClear
      aria-label={placeholder}
      placeholder={placeholder}
      style={{ width: 170 }}
      defaultValue={filter[key]}
      onSearch={(v) => set({ [key]: v.trim() || undefined })}
    />
  );
  return (
    <Card size="small">
      <Space wrap>
        {shown('teamId') && pick('teamId', teams, t.allTeams)}
        {shown('appId') && pick('appId', apps, t.allApps)}
        {shown('projectId') && pick('projectId', projects, t.allProjects)}
        {shown('version') && text('version', t.anyVersion)}
        {shown('testType') && (
          <Select
            allowClear
            aria-label={t.testType}
            placeholder={t.anyTestType}
            style={{ width: 170 }}
            value={filter.testType}
            options={[
              { value: 1, label: t.unit },
              { value: 2, label: t.functional },
            ]}
            onChange={(v: number | undefined) => set({ testType: v })}
          />
        )}
        {shown('envType') && text('envType', t.anyEnvironment)}
        {shown('from') && (
          <DatePicker.RangePicker
            aria-label={t.period}
            allowEmpty={[true, true]}
            value={[filter.from ? dayjs(filter.from) : null, filter.to ? dayjs(filter.to) : null]}
            onChange={(range) => set({ from: range?.[0]?.format('YYYY-MM-DD'), to: range?.[1]?.format('YYYY-MM-DD') })}
          />
        )}
        <Button onClick={url.clear}>{t.reset}</Button>
      </Space>
    </Card>
  );
}
