import { type JudgmentRequest, RISK_JUDGMENTS, type RiskItem, type RiskJudgment } from '@sextant/api';
import { App, Button, DatePicker, Drawer, Form, Input, Radio, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useErrorMessage } from '../../../lib/error-texts.ts';
import { fill, useTexts } from '../../../lib/i18n.tsx';
import { usePermission } from '../../../lib/permissions.ts';
import { useJudgeRisk } from '../api/decide.ts';
import { useAssigneeOptions } from '../api/get-assignees.ts';
import { riskTexts } from '../texts.ts';

type Values = { judgment: RiskJudgment; reason?: string; assigneeId?: string; dueDate?: Dayjs };

/** A judged item's drawer opens on its judgment (re-judging changes it); a new one on "needs test". */
function initialOf(item: RiskItem | null): Partial<Values> {
  if (!item?.judgment) return { judgment: 'needs-test' };
  return {
    judgment: item.judgment,
    ...(item.reason ? { reason: item.reason } : {}),
    ...(item.assigneeId ? { assigneeId: item.assigneeId } : {}),
    ...(item.dueDate ? { dueDate: dayjs(item.dueDate) } : {}),
  };
}

/** Accepted or false positive with a reason; needs test with an assignee and a due date. */
export function JudgmentDrawer({ item, onClose }: { item: RiskItem | null; onClose: () => void }) {
  const t = useTexts(riskTexts);
  const { message } = App.useApp();
  const errorMessage = useErrorMessage();
  const [form] = Form.useForm<Values>();
  const judgment = Form.useWatch('judgment', form);
  const users = useAssigneeOptions(item?.id ?? null, usePermission('read', 'User'));
  const judge = useJudgeRisk();

  const submit = (values: Values) => {
    if (!item) return;
    const body: JudgmentRequest =
      values.judgment === 'needs-test'
        ? {
            judgment: 'needs-test',
            assigneeId: values.assigneeId as string,
            dueDate: (values.dueDate as Dayjs).format('YYYY-MM-DD'),
            ...(values.reason ? { reason: values.reason } : {}),
          }
        : { judgment: values.judgment, reason: values.reason ?? '' };
    judge.mutate(
      { id: item.id, body },
      {
        onSuccess: () => {
          message.success(t.judgmentDrawer.saved);
          form.resetFields();
          onClose();
        },
        onError: (e) => message.error(errorMessage(e)),
      },
    );
  };

  return (
    <Drawer
      open={item !== null}
      onClose={onClose}
      width={480}
      destroyOnHidden
      title={item ? fill(t.judgmentDrawer.title, { method: item.methodName }) : ''}
    >
      <Form form={form} layout="vertical" onFinish={submit} initialValues={initialOf(item)}>
        <Form.Item name="judgment" label={t.judgmentDrawer.judgment} rules={[{ required: true }]}>
          <Radio.Group optionType="button" options={RISK_JUDGMENTS.map((j) => ({ value: j, label: t.judgments[j] }))} />
        </Form.Item>
        {judgment === 'needs-test' && (
          <>
            <Form.Item
              name="assigneeId"
              label={t.judgmentDrawer.assignee}
              rules={[{ required: true, message: t.judgmentDrawer.assigneeRequired }]}
            >
              <Select showSearch optionFilterProp="label" options={users} />
            </Form.Item>
            <Form.Item
              name="dueDate"
              label={t.judgmentDrawer.dueDate}
              rules={[{ required: true, message: t.judgmentDrawer.dueRequired }]}
            >
              <DatePicker style={{ width: '100%' }} />
            </Form.Item>
          </>
        )}
        <Form.Item
          name="reason"
          label={t.judgmentDrawer.reason}
          rules={
            judgment === 'needs-test'
              ? []
              : [{ required: true, whitespace: true, message: t.judgmentDrawer.reasonRequired }]
          }
        >
          <Input.TextArea rows={3} maxLength={2000} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={judge.isPending}>
          {t.judgmentDrawer.save}
        </Button>
      </Form>
    </Drawer>
  );
}
