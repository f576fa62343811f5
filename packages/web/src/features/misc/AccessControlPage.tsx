import { Card, Descriptions, Result, Tag } from 'antd';
import { Link } from 'react-router';
import { useTexts } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import { miscTexts } from './texts.ts';

/** Where a client lands after sign-in (navigation rule 3): what the account may do, and how to get more. */
export default function AccessControlPage() {
  const { userData } = useSession();
  const t = useTexts(miscTexts);
  if (!userData) return null;
  return (
    <Card>
      <Result status="info" title={t.yourAccess} subTitle={t.yourAccessDetail} />
      <Descriptions bordered column={1} size="small">
        <Descriptions.Item label={t.role}>{userData.role}</Descriptions.Item>
        <Descriptions.Item label={t.abilities}>
          {userData.ability.map((a) => (
            <Tag key={`${a.action}:${a.resource}`}>
              {a.action} · {a.resource}
            </Tag>
          ))}
        </Descriptions.Item>
        <Descriptions.Item label={t.needMore}>
          {t.askBefore} <Link to="/apply">{t.requestForm}</Link> {t.askAfter}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
