import { pageSchema } from '@sextant/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Card, Modal, Table } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { useState } from 'react';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { fill, useLocale, useTexts } from '../../lib/i18n.tsx';
import { api } from '../../lib/session.tsx';
import { tableLoading } from '../../lib/table-loading.ts';
import { EntityForm } from './EntityForm.tsx';
import { EntityListHeader, emptyText, entityColumns } from './entity-table-parts.tsx';
import { crudTexts } from './texts.ts';
import type { EntitySpec, PageQuery } from './types.ts';
import { useEntityEditing, useEntityRemove } from './use-entity-editing.ts';

/**
 * A list screen with server-side search, sorting and pagination (page size 10), and create, edit and
 * delete in a modal whose fields show the server's validation messages.
 */
export function EntityListScreen<T extends { id: string }>({ title, spec }: { title: string; spec: EntitySpec<T> }) {
  const [query, setQuery] = useState<PageQuery>({ page: 1, perPage: 10 });
  const t = useTexts(crudTexts);
  const { formatNumber } = useLocale();
  const errorText = useErrorMessage();
  const edit = useEntityEditing(spec);
  const remove = useEntityRemove(spec);
  const noun = { noun: spec.noun };

  const list = useQuery({
    queryKey: [spec.path, query, spec.extraQuery],
    queryFn: () => api.get(spec.path, pageSchema(spec.schema), { query: { ...query, ...spec.extraQuery } }),
    placeholderData: keepPreviousData,
  });

  function sortAndPage(pagination: { current?: number; pageSize?: number }, sorter: SorterResult<T> | undefined) {
    setQuery((q) => ({
      ...q,
      page: pagination.current ?? 1,
      perPage: pagination.pageSize ?? 10,
      sortBy: sorter?.order ? String(sorter.columnKey) : undefined,
      sortDesc: sorter?.order ? sorter.order === 'descend' : undefined,
    }));
  }

  return (
    <Card>
      <EntityListHeader
        title={title}
        noun={spec.noun}
        filters={spec.filters}
        t={t}
        onSearch={(q) => setQuery((current) => ({ ...current, page: 1, q }))}
        onNew={spec.can.create ? () => edit.open('new') : null}
      />
      {list.error && <Alert type="error" showIcon message={errorText(list.error)} style={{ marginBottom: 16 }} />}
      <Table<T>
        rowKey="id"
        loading={tableLoading(list)}
        dataSource={list.data?.items ?? []}
        locale={{ emptyText: emptyText(t, spec.noun, query.q, spec.emptyHint) }}
        pagination={{
          current: query.page,
          pageSize: query.perPage,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => fill(t.total, { total: formatNumber(total) }),
        }}
        onChange={(pagination, _filters, sorter) =>
          sortAndPage(pagination, (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T> | undefined)
        }
        columns={entityColumns(spec, t, { onEdit: edit.open, onRemove: (row) => remove.mutate(row) })}
      />
      <Modal
        open={edit.editing !== null}
        title={fill(edit.editing === 'new' ? t.newItem : t.editItem, noun)}
        okText={edit.editing === 'new' ? t.create : t.save}
        confirmLoading={edit.save.isPending}
        onOk={() => void edit.submit()}
        onCancel={edit.close}
        destroyOnHidden
      >
        {edit.formError && <Alert type="error" showIcon message={edit.formError} style={{ marginBottom: 16 }} />}
        <EntityForm form={edit.form} fields={spec.fields} creating={edit.editing === 'new'} />
      </Modal>
    </Card>
  );
}
