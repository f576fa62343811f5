import { DatePicker, Form, type FormInstance, Input, InputNumber, Select, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { fill, useTexts } from '../../lib/i18n.tsx';
import { crudTexts } from './texts.ts';
import type { FieldSpec } from './types.ts';

function control(field: FieldSpec) {
  switch (field.kind) {
    case 'textarea':
      return <Input.TextArea rows={3} maxLength={field.maxLength} showCount={Boolean(field.maxLength)} />;
    case 'number':
      return <InputNumber style={{ width: '100%' }} />;
    case 'select':
      return <Select options={field.options} showSearch optionFilterProp="label" allowClear={!field.required} />;
    case 'tags':
      return <Select mode={field.options ? 'multiple' : 'tags'} options={field.options} optionFilterProp="label" />;
    case 'switch':
      return <Switch />;
    case 'date':
      return <DatePicker style={{ width: '100%' }} />;
    case 'password':
      return <Input.Password maxLength={field.maxLength} autoComplete="new-password" />;
    default:
      return <Input maxLength={field.maxLength} />;
  }
}

/** One form for create and edit; the server's field errors are set on it by the caller. */
export function EntityForm({ form, fields, creating }: { form: FormInstance; fields: FieldSpec[]; creating: boolean }) {
  const t = useTexts(crudTexts);
  return (
    <Form form={form} layout="vertical" requiredMark="optional">
      {fields
        .filter((f) => (creating ? !f.editOnly : !f.createOnly))
        .map((field) => (
          <Form.Item
            key={field.name}
            name={field.name}
            label={field.label}
            extra={field.help}
            valuePropName={field.kind === 'switch' ? 'checked' : 'value'}
            // Dates travel as YYYY-MM-DD strings; the picker works on dayjs values.
            {...(field.kind === 'date'
              ? {
                  getValueProps: (value: string | null) => ({ value: value ? dayjs(value) : null }),
                  normalize: (value: Dayjs | null) => (value ? value.format('YYYY-MM-DD') : null),
                }
              : {})}
            rules={
              field.required
                ? [
                    {
                      required: true,
                      whitespace: field.kind !== 'switch',
                      message: fill(t.required, { label: field.label.toLowerCase() }),
                    },
                  ]
                : []
            }
          >
            {control(field)}
          </Form.Item>
        ))}
    </Form>
  );
}
