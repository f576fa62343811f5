import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Empty, Input, Popconfirm, Space, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import type { ReactNode } from 'react';
import { fill } from '../../lib/i18n.tsx';
import type { crudTexts } from './texts.ts';
import type { EntitySpec } from './types.ts';

type CrudTexts = (typeof crudTexts)['en'];

type HeaderProps = {
  title: string;
  noun: string;
  filters: ReactNode;
  t: CrudTexts;
  onSearch: (q: string | undefined) => void;
  onNew: (() => void) | null;
};

/** The title, the screen's filters, the search box and (for whoever may create) the new-item button. */
export function EntityListHeader({ title, noun, filters, t, onSearch, onNew }: HeaderProps) {
  return (
    <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {title}
      </Typography.Title>
      <Space wrap>
        {filters}
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t.search}
          aria-label={fill(t.searchLabel, { title })}
          onChange={(e) => onSearch(e.target.value || undefined)}
          style={{ width: 220 }}
        />
        {onNew && (
          <Button type="primary" icon={<PlusOutlined />} onClick={onNew}>
            {fill(t.newItem, { noun })}
          </Button>
        )}
      </Space>
    </Space>
  );
}

/** What an empty list says: no match for the search, or none yet with the screen's hint. */
export function emptyText(t: CrudTexts, noun: string, q: string | undefined, hint: string | undefined): ReactNode {
  if (q) return fill(t.noMatch, { noun, q });
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <>
          <div>{fill(t.none, { noun })}</div>
          {hint && <Typography.Text type="secondary">{hint}</Typography.Text>}
        </>
      }
    />
  );
}

type RowHandlers<T> = { onEdit: (row: T) => void; onRemove: (row: T) => void };

/** The spec's columns, then the row actions (the spec's own, edit, delete) where the screen offers any. */
export function entityColumns<T extends { id: string }>(
  spec: EntitySpec<T>,
  t: CrudTexts,
  { onEdit, onRemove }: RowHandlers<T>,
): ColumnsType<T> {
  const columns: ColumnsType<T> = spec.columns.map((c) => ({
    key: c.key,
    dataIndex: c.key,
    title: c.title,
    width: c.width,
    sorter: c.sortable,
    render: c.render ? (_: unknown, row: T) => c.render?.(row) : undefined,
  }));
  if (!(spec.can.update || spec.can.remove || spec.rowActions)) return columns;
  const actions = {
    key: 'actions',
    title: t.actions,
    render: (_: unknown, row: T) => (
      <Space>
        {spec.rowActions?.(row)}
        {spec.can.update && (
          <Button size="small" onClick={() => onEdit(row)}>
            {t.edit}
          </Button>
        )}
        {spec.can.remove && (
          <Popconfirm title={fill(t.confirmDelete, { noun: spec.noun })} onConfirm={() => onRemove(row)}>
            <Button size="small" danger>
              {t.delete}
            </Button>
          </Popconfirm>
        )}
      </Space>
    ),
  };
  return [...columns, actions];
}
