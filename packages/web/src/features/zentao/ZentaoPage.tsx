import { ArrowLeftOutlined, ExportOutlined, ImportOutlined } from '@ant-design/icons';
import type { Screen } from '@sextant/api';
import { Alert, Button, Card, Drawer, Empty, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { useTexts } from '../../lib/i18n.tsx';
import { usePermission } from '../../lib/permissions.ts';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { ImportPanel } from './ImportPanel.tsx';
import { ImportSummary } from './ImportSummary.tsx';
import { useZentaoStatus } from './status.ts';
import { zentaoTexts } from './texts.ts';
import './zentao.css';

/**
 * /zentao (full layout): ZenTao in a frame when its answer lets this site frame it (the server checks
 * X-Frame-Options and frame-ancestors and our CSP allows its origin), otherwise a card that opens it
 * in a new tab; beside it the import of its stories and test cases.
 */
export default function ZentaoPage({ screen }: { screen: Screen }) {
  const t = useTexts(zentaoTexts);
  const title = useScreenTitle(screen);
  const errorMessage = useErrorMessage();
  const status = useZentaoStatus();
  const mayConfigure = usePermission('update', 'Setting');
  const [importOpen, setImportOpen] = useState(false);
  const data = status.data;
  const framed = data?.url && data.frame?.verdict === 'allowed';

  return (
    <div className="zentao-page">
      <header className="zentao-bar">
        <Space>
          <Link to="/">
            <ArrowLeftOutlined /> {t.back}
          </Link>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
          {data?.url && <Typography.Text type="secondary">{data.url}</Typography.Text>}
        </Space>
        {data?.url && (
          <Space>
            {framed && (
              <Button icon={<ImportOutlined />} onClick={() => setImportOpen(true)} data-testid="zentao-open-import">
                {t.importTitle}
              </Button>
            )}
            <Button icon={<ExportOutlined />} href={data.url} target="_blank" rel="noopener noreferrer">
              {t.openInTab}
            </Button>
          </Space>
        )}
      </header>
      {status.error && <Alert type="error" showIcon message={errorMessage(status.error)} />}
      {status.isPending && <Skeleton active />}
      {data && !data.url && (
        <Card className="zentao-card">
          <Empty
            description={
              <>
                <Typography.Title level={5}>{t.notConfigured}</Typography.Title>
                <Typography.Paragraph type="secondary">{t.notConfiguredHelp}</Typography.Paragraph>
              </>
            }
          >
            {mayConfigure && (
              <Link to="/system/systemSetting">
                <Button type="primary">{t.toSettings}</Button>
              </Link>
            )}
          </Empty>
          {/* The last import stays worth reading after the address is cleared (the demo's is). */}
          {data.lastImport && <ImportSummary summary={data.lastImport} />}
        </Card>
      )}
      {data?.url && framed && (
        <>
          <iframe
            className="zentao-frame"
            title={title}
            src={data.url}
            referrerPolicy="no-referrer"
            sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-downloads"
          />
          <Drawer title={t.importTitle} open={importOpen} onClose={() => setImportOpen(false)} width={720}>
            <ImportPanel status={data} />
          </Drawer>
        </>
      )}
      {data?.url && !framed && data.frame && data.frame.verdict !== 'allowed' && (
        <div className="zentao-cards">
          <Card className="zentao-card" data-testid="zentao-card">
            <Typography.Title level={4}>{t.cardTitle}</Typography.Title>
            <Typography.Paragraph>{t.cardReason[data.frame.verdict]}</Typography.Paragraph>
            <Typography.Paragraph type="secondary" code>
              {data.frame.detail}
            </Typography.Paragraph>
            <Button type="primary" icon={<ExportOutlined />} href={data.url} target="_blank" rel="noopener noreferrer">
              {t.openInTab}
            </Button>
          </Card>
          <Card className="zentao-card" title={t.importTitle}>
            <ImportPanel status={data} />
          </Card>
        </div>
      )}
    </div>
  );
}
