import { NoDataSchema } from '@sextant/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form } from 'antd';
import { useState } from 'react';
import { ApiError } from '../../lib/api-client.ts';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { useFieldErrors } from '../../lib/field-messages.ts';
import { fill, useTexts } from '../../lib/i18n.tsx';
import { api } from '../../lib/session.tsx';
import { crudTexts } from './texts.ts';
import type { EntitySpec } from './types.ts';

/**
 * The create / edit modal's state: which row is open ('new' for a new one), its form, the save
 * (the server's field messages shown on the fields, any other failure above them) and the list
 * fetched again once saved.
 */
export function useEntityEditing<T extends { id: string }>(spec: EntitySpec<T>) {
  const fieldErrorsOf = useFieldErrors();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [form] = Form.useForm();
  const t = useTexts(crudTexts);
  const errorText = useErrorMessage();

  const save = useMutation({
    mutationFn: (values: Record<string, unknown>) =>
      editing === 'new' || editing === null
        ? api.post(spec.path, spec.savedSchema ?? spec.schema, values)
        : api.patch(`${spec.path}/${encodeURIComponent(editing.id)}`, spec.savedSchema ?? spec.schema, values),
    onSuccess: (answer) => {
      message.success(fill(editing === 'new' ? t.created : t.saved, { noun: spec.noun }));
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

  return { editing, formError, form, save, open, submit, close: () => setEditing(null) };
}

/** Deleting a row: said in a message either way, the list fetched again once done. */
export function useEntityRemove<T extends { id: string }>(spec: EntitySpec<T>) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const t = useTexts(crudTexts);
  const errorText = useErrorMessage();
  return useMutation({
    mutationFn: (row: T) => api.delete(`${spec.path}/${encodeURIComponent(row.id)}`, NoDataSchema),
    onSuccess: () => {
      message.success(fill(t.deleted, { noun: spec.noun }));
      void client.invalidateQueries({ queryKey: [spec.path] });
    },
    onError: (error) => message.error(error instanceof ApiError ? errorText(error) : t.deleteFailed),
  });
}
