import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { NoDataSchema, pageSchema } from '@sextant/api';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Form, Input, Modal, Popconfirm, Space, Table, Typography } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { useState } from 'react';
import { ApiError } from '../../lib/api-client.ts';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { useFieldErrors } from '../../lib/field-messages.ts';
import { fill, useLocale, useTexts } from '../../lib/i18n.tsx';
import { api } from '../../lib/session.tsx';
import { tableLoading } from '../../lib/table-loading.ts';
import { EntityForm } from './EntityForm.tsx';
import { crudTexts } from './texts.ts';
import type { EntitySpec, PageQuery } from './types.ts';

/**
 * A list screen with server-side search, sorting and pagination (page size 10), and create, edit and
 * delete in a modal whose fields show the server's validation messages.
 */
export function EntityListScreen<T extends { id: string }>({ title, spec }: { title: string; spec: EntitySpec<T> }) {
  const fieldErrorsOf = useFieldErrors();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [query, setQuery] = useState<PageQuery>({ page: 1, perPage: 10 });
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [form] = Form.useForm();
  const t = useTexts(crudTexts);
  const { formatNumber } = useLocale();
  const errorText = useErrorMessage();
  const noun = { noun: spec.noun };

  const list = useQuery({
    queryKey: [spec.path, query, spec.extraQuery],
    queryFn: () => api.get(spec.path, pageSchema(spec.schema), { query: { ...query, ...spec.extraQuery } }),
    placeholderData: keepPreviousData,
  });

  const save = useMutation({
    mutationFn: (values: Record<string, unknown>) =>
      editing === 'new' || editing === null
        ? api.post(spec.path, spec.savedSchema ?? spec.schema, values)
        : api.patch(`${spec.path}/${encodeURIComponent(editing.id)}`, spec.savedSchema ?? spec.schema, values),
    onSuccess: (answer) => {
      message.success(fill(editing === 'new' ? t.created : t.saved, noun));
      spec.onSaved?.(answer, editing === 'new');
      setEditing(null);
      void client.invalidateQueries({ queryKey: [spec.path] });
    },
    onError: (error) => {
      if (error instanceof ApiError) {
        const fields = fieldErrorsOf(error);
        form.setFields(Object.entries(fields).map(([name, text]) => ({ name, errors: [text] })));
      }
      setFormError(errorText(error));
    },
  });

  const remove = useMutation({
    mutationFn: (row: T) => api.delete(`${spec.path}/${encodeURIComponent(row.id)}`, NoDataSchema),
    onSuccess: () => {
      message.success(fill(t.deleted, noun));
      void client.invalidateQueries({ queryKey: [spec.path] });
    },
    onError: (error) => message.error(error instanceof ApiError ? errorText(error) : t.deleteFailed),
  });

  function open(target: T | 'new') {
    setFormError(null);
    form.resetFields();
    if (target !== 'new') form.setFieldsValue(spec.toFormValues ? spec.toFormValues(target) : target);
    setEditing(target);
  }

  async function submit() {
    const values = (await form.validateFields()) as Record<string, unknown>;
    save.mutate(spec.fromFormValues ? spec.fromFormValues(values) : values);
  }

  const showActions = spec.can.update || spec.can.remove || spec.rowActions;
  return (
    <Card>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        <Space wrap>
          {spec.filters}
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={t.search}
            aria-label={fill(t.searchLabel, { title })}
            onChange={(e) => setQuery((q) => ({ ...q, page: 1, q: e.target.value || undefined }))}
            style={{ width: 220 }}
          />
          {spec.can.create && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')}>
              {fill(t.newItem, noun)}
            </Button>
          )}
        </Space>
      </Space>
      {list.error && <Alert type="error" showIcon message={errorText(list.error)} style={{ marginBottom: 16 }} />}
      <Table<T>
        rowKey="id"
        loading={tableLoading(list)}
        dataSource={list.data?.items ?? []}
        locale={{
          emptyText: query.q ? (
            fill(t.noMatch, { ...noun, q: query.q })
          ) : (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                <>
                  <div>{fill(t.none, noun)}</div>
                  {spec.emptyHint && <Typography.Text type="secondary">{spec.emptyHint}</Typography.Text>}
                </>
              }
            />
          ),
        }}
        pagination={{
          current: query.page,
          pageSize: query.perPage,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => fill(t.total, { total: formatNumber(total) }),
        }}
        onChange={(pagination, _filters, sorter) => {
          const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T> | undefined;
          setQuery((q) => ({
            ...q,
            page: pagination.current ?? 1,
            perPage: pagination.pageSize ?? 10,
            sortBy: s?.order ? String(s.columnKey) : undefined,
            sortDesc: s?.order ? s.order === 'descend' : undefined,
          }));
        }}
        columns={[
          ...spec.columns.map((c) => ({
            key: c.key,
            dataIndex: c.key,
            title: c.title,
            width: c.width,
            sorter: c.sortable,
            render: c.render ? (_: unknown, row: T) => c.render?.(row) : undefined,
          })),
          ...(showActions
            ? [
                {
                  key: 'actions',
                  title: t.actions,
                  render: (_: unknown, row: T) => (
                    <Space>
                      {spec.rowActions?.(row)}
                      {spec.can.update && (
                        <Button size="small" onClick={() => open(row)}>
                          {t.edit}
                        </Button>
                      )}
                      {spec.can.remove && (
                        <Popconfirm title={fill(t.confirmDelete, noun)} onConfirm={() => remove.mutate(row)}>
                          <Button size="small" danger>
                            {t.delete}
                          </Button>
                        </Popconfirm>
                      )}
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      <Modal
        open={editing !== null}
        title={fill(editing === 'new' ? t.newItem : t.editItem, noun)}
        okText={editing === 'new' ? t.create : t.save}
        confirmLoading={save.isPending}
        onOk={() => void submit()}
        onCancel={() => setEditing(null)}
        destroyOnHidden
      >
        {formError && <Alert type="error" showIcon message={formError} style={{ marginBottom: 16 }} />}
        <EntityForm form={form} fields={spec.fields} creating={editing === 'new'} />
      </Modal>
    </Card>
  );
}
