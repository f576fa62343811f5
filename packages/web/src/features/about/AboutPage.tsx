import { AboutSchema, PATHS } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Descriptions, Skeleton, Typography } from 'antd';
import { useEditionLabels } from '../../lib/edition-texts.ts';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { useTexts } from '../../lib/i18n.tsx';
import { api } from '../../lib/session.tsx';
import { aboutTexts } from './texts.ts';

export default function AboutPage() {
  const t = useTexts(aboutTexts);
  const editionLabels = useEditionLabels();
  const errorMessage = useErrorMessage();
  const about = useQuery({ queryKey: ['about'], queryFn: () => api.get(PATHS.about, AboutSchema) });
  if (about.isLoading) return <Skeleton active />;
  if (about.error) return <Alert type="error" showIcon message={errorMessage(about.error)} />;
  const data = about.data;
  if (!data) return null;
  return (
    <Card>
      <Typography.Title level={4}>{t.title}</Typography.Title>
      <Typography.Paragraph type="secondary">{t.intro}</Typography.Paragraph>
      <Descriptions bordered column={1} size="small">
        <Descriptions.Item label={t.version}>{data.version}</Descriptions.Item>
        <Descriptions.Item label={t.edition}>{editionLabels[data.edition]}</Descriptions.Item>
        <Descriptions.Item label={t.commit}>{data.commit ?? t.unknown}</Descriptions.Item>
        <Descriptions.Item label={t.database}>{data.database === 'embedded' ? t.embedded : t.server}</Descriptions.Item>
        <Descriptions.Item label={t.docs}>
          <a href={data.docs} target="_blank" rel="noreferrer">
            {data.docs}
          </a>
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
