import { ADMIN_API, CASE_CSV_COLUMNS, type CaseImportProblem } from '@sextant/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Modal, Select, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { api } from '../../lib/session.tsx';

/** CSV import: every row is stored or none, and a refusal lists each bad row with its column. */
export function CaseImport({ apps }: { apps: { value: string; label: string }[] }) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [appId, setAppId] = useState<string>();
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [problems, setProblems] = useState<CaseImportProblem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const run = useMutation({
    mutationFn: () =>
      api.post<{ imported: number }>(ADMIN_API.casesImport, file?.text ?? '', {
        query: { appId },
        contentType: 'text/csv',
      }),
    onSuccess: (r) => {
      message.success(`${r.imported} cases imported.`);
      setOpen(false);
      void client.invalidateQueries({ queryKey: [ADMIN_API.cases] });
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
        Import CSV
      </Button>
      <Modal
        open={open}
        width={720}
        title="Import test cases"
        okText="Import"
        okButtonProps={{ disabled: !appId || !file }}
        confirmLoading={run.isPending}
        onOk={() => run.mutate()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Typography.Paragraph>
          Columns: <Typography.Text code>{CASE_CSV_COLUMNS.join(',')}</Typography.Text> (key and title required; tags
          separated by <Typography.Text code>;</Typography.Text>, owner by username).
        </Typography.Paragraph>
        <Select
          aria-label="App for the cases"
          placeholder="App"
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
          <Button>Choose a CSV file</Button>
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
              { title: 'Row', dataIndex: 'row', width: 70 },
              { title: 'Column', dataIndex: 'column', width: 120, render: (c: string | null) => c ?? '—' },
              { title: 'Problem', dataIndex: 'message' },
            ]}
          />
        )}
      </Modal>
    </>
  );
}
