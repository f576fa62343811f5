import { CASE_CSV_COLUMNS, type CaseImportProblem, CaseImportResultSchema, PATHS } from '@sextant/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Modal, Select, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { ApiError } from '../../lib/api-client.ts';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { fill, useLocale, useTexts } from '../../lib/i18n.tsx';
import { api } from '../../lib/session.tsx';
import { caseTexts } from './texts.ts';

/** CSV import: every row is stored or none, and a refusal lists each bad row with its column. */
export function CaseImport({ apps }: { apps: { value: string; label: string }[] }) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const t = useTexts(caseTexts);
  const { formatNumber } = useLocale();
  const errorMessage = useErrorMessage();
  const [open, setOpen] = useState(false);
  const [appId, setAppId] = useState<string>();
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [problems, setProblems] = useState<CaseImportProblem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const run = useMutation({
    mutationFn: () =>
      api.post(PATHS.casesImport, CaseImportResultSchema, file?.text ?? '', {
        query: { appId },
        contentType: 'text/csv',
      }),
    onSuccess: (r) => {
      message.success(fill(t.imported, { count: formatNumber(r.imported) }));
      setOpen(false);
      void client.invalidateQueries({ queryKey: [PATHS.cases] });
    },
    onError: (e) => {
      setError(errorMessage(e));
      setProblems(e instanceof ApiError ? ((e.data as { rows?: CaseImportProblem[] } | null)?.rows ?? []) : []);
    },
  });
  const reset = () => {
    setFile(null);
    setProblems([]);
    setError(null);
  };
  return (
    <>
      <Button
        onClick={() => {
          reset();
          setOpen(true);
        }}
      >
        {t.importCsv}
      </Button>
      <Modal
        open={open}
        width={720}
        title={t.importTitle}
        okText={t.import}
        okButtonProps={{ disabled: !appId || !file }}
        confirmLoading={run.isPending}
        onOk={() => run.mutate()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Typography.Paragraph>
          {t.columns} <Typography.Text code>{CASE_CSV_COLUMNS.join(',')}</Typography.Text> {t.columnsRule}{' '}
          <Typography.Text code>;</Typography.Text>
          {t.ownerRule}
        </Typography.Paragraph>
        <Select
          aria-label={t.appForCases}
          placeholder={t.app}
          style={{ width: '100%', marginBottom: 12 }}
          options={apps}
          value={appId}
          onChange={setAppId}
        />
        <Upload
          accept=".csv,text/csv"
          maxCount={1}
          beforeUpload={async (f) => {
            reset();
            setFile({ name: f.name, text: await f.text() });
            return false;
          }}
          onRemove={reset}
        >
          <Button>{t.chooseFile}</Button>
        </Upload>
        {error && <Alert type="error" showIcon message={error} style={{ marginTop: 12 }} />}
        {problems.length > 0 && (
          <Table<CaseImportProblem>
            size="small"
            style={{ marginTop: 12 }}
            rowKey={(p) => `${p.row}:${p.column}:${p.message}`}
            dataSource={problems}
            pagination={{ pageSize: 8, hideOnSinglePage: true }}
            columns={[
              { title: t.row, dataIndex: 'row', width: 70 },
              { title: t.column, dataIndex: 'column', width: 120, render: (c: string | null) => c ?? '—' },
              { title: t.problem, dataIndex: 'message' },
            ]}
          />
        )}
      </Modal>
    </>
  );
}
