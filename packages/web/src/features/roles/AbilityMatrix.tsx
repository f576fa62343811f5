import { type Ability, ACTIONS, type Action, RESOURCES, type Resource, type ResourceNums } from '@sextant/api';
import { Checkbox, Switch, Table } from 'antd';
import { fill, useTexts } from '../../lib/i18n.tsx';
import { roleTexts } from './texts.ts';

export type Grants = { ability: Ability[]; resourceNums: ResourceNums };

const EDITABLE_RESOURCES = RESOURCES.filter((r) => r !== 'all');

function has(grants: Grants, action: Action, resource: Resource): boolean {
  return grants.ability.some((a) => a.action === action && a.resource === resource);
}

function toggle(grants: Grants, action: Action, resource: Resource, on: boolean): Grants {
  const rest = grants.ability.filter((a) => !(a.action === action && a.resource === resource));
  return { ...grants, ability: on ? [...rest, { action, resource }] : rest };
}

/** Abilities as actions × resources, with the resource map (specification point 6) beside them. */
export function AbilityMatrix({
  value,
  onChange,
  disabled,
}: {
  value: Grants;
  onChange: (next: Grants) => void;
  disabled?: boolean;
}) {
  const t = useTexts(roleTexts);
  return (
    <Table
      size="small"
      rowKey="resource"
      pagination={false}
      scroll={{ y: 420 }}
      dataSource={EDITABLE_RESOURCES.map((resource) => ({ resource }))}
      columns={[
        { title: t.resource, dataIndex: 'resource', width: 170 },
        ...ACTIONS.map((action) => ({
          title: action,
          key: action,
          align: 'center' as const,
          render: (_: unknown, row: { resource: Resource }) => (
            <Checkbox
              aria-label={`${action} ${row.resource}`}
              disabled={disabled}
              checked={has(value, action, row.resource)}
              onChange={(e) => onChange(toggle(value, action, row.resource, e.target.checked))}
            />
          ),
        })),
        {
          title: t.inMap,
          key: 'map',
          align: 'center' as const,
          render: (_: unknown, row: { resource: Resource }) => (
            <Switch
              size="small"
              aria-label={fill(t.inMapLabel, { resource: row.resource })}
              disabled={disabled}
              checked={value.resourceNums[row.resource] === 1}
              onChange={(on) =>
                onChange({ ...value, resourceNums: { ...value.resourceNums, [row.resource]: on ? 1 : 0 } })
              }
            />
          ),
        },
      ]}
    />
  );
}
