import { type About, API, EDITION_LABELS } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Descriptions, Skeleton, Typography } from 'antd';
import { api } from '../../lib/session.tsx';

export default function AboutPage() {
  const about = useQuery({ queryKey: ['about'], queryFn: () => api.get<About>(API.about) });
  if (about.isLoading) return <Skeleton active />;
  if (about.error) return <Alert type="error" showIcon message={about.error.message} />;
  const data = about.data;
  if (!data) return null;
  return (
    <Card>
      <Typography.Title level={4}>About Sextant</Typography.Title>
      <Typography.Paragraph type="secondary">
        Self-hosted code coverage and test quality: how much of the code you changed your tests really ran.
      </Typography.Paragraph>
      <Descriptions bordered column={1} size="small">
        <Descriptions.Item label="Version">{data.version}</Descriptions.Item>
        <Descriptions.Item label="Edition">{EDITION_LABELS[data.edition]}</Descriptions.Item>
        <Descriptions.Item label="Build commit">{data.commit ?? 'unknown'}</Descriptions.Item>
        <Descriptions.Item label="Database">
          {data.database === 'embedded' ? 'Embedded PostgreSQL (PGlite)' : 'PostgreSQL server'}
        </Descriptions.Item>
        <Descriptions.Item label="API documentation">
          <a href={data.docs} target="_blank" rel="noreferrer">
            {data.docs}
          </a>
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
