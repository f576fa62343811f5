import { PATHS, RISK_KINDS, RISK_STATES } from '@sextant/api';
import { Input, Select, Space } from 'antd';
import { useNamedOptions } from '../../../lib/admin-options.ts';
import { useTexts } from '../../../lib/i18n.tsx';
import { riskTexts } from '../texts.ts';
import type { RiskSearch } from '../url.ts';

/** Team, app, project, version, test type, author, kind and state; each change goes to the URL. */
export function RiskFilters({ search, onSearch }: { search: RiskSearch; onSearch: (next: RiskSearch) => void }) {
  const t = useTexts(riskTexts);
  const teams = useNamedOptions(PATHS.teams);
  const apps = useNamedOptions(PATHS.apps);
  const projects = useNamedOptions(PATHS.projects);
  const set = (key: keyof RiskSearch, value: unknown) =>
    onSearch({ ...search, [key]: value === '' || value === null ? undefined : value, page: 1 });
  const select = (key: 'teamId' | 'appId' | 'projectId', label: string, options: typeof teams) => (
    <Select
      allowClear
      showSearch
      optionFilterProp="label"
      aria-label={label}
      placeholder={label}
      style={{ width: 160 }}
      value={search[key]}
      options={options}
      onChange={(v) => set(key, v)}
    />
  );
  return (
    <Space wrap style={{ marginBottom: 16 }}>
      {select('teamId', t.filters.team, teams)}
      {select('appId', t.filters.app, apps)}
      {select('projectId', t.filters.project, projects)}
      <Input.Search
        allowClear
        aria-label={t.filters.version}
        placeholder={t.filters.version}
        style={{ width: 150 }}
        defaultValue={search.version}
        onSearch={(v) => set('version', v.trim())}
      />
      <Select
        allowClear
        aria-label={t.filters.testType}
        placeholder={t.filters.testType}
        style={{ width: 150 }}
        value={search.testType}
        options={[
          { value: 1, label: t.filters.unit },
          { value: 2, label: t.filters.functional },
        ]}
        onChange={(v) => set('testType', v)}
      />
      <Input.Search
        allowClear
        aria-label={t.filters.author}
        placeholder={t.filters.author}
        style={{ width: 170 }}
        defaultValue={search.author}
        onSearch={(v) => set('author', v.trim())}
      />
      <Select
        allowClear
        aria-label={t.filters.kind}
        placeholder={t.filters.kind}
        style={{ width: 140 }}
        value={search.kind}
        options={RISK_KINDS.map((k) => ({ value: k, label: t.kinds[k] }))}
        onChange={(v) => set('kind', v)}
      />
      <Select
        allowClear
        mode="multiple"
        aria-label={t.filters.state}
        placeholder={t.filters.state}
        style={{ minWidth: 180 }}
        value={search.state ? search.state.split(',') : []}
        options={RISK_STATES.map((s) => ({ value: s, label: t.states[s] }))}
        onChange={(v: string[]) => set('state', v.join(','))}
      />
    </Space>
  );
}
