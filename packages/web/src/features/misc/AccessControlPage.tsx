import { Card, Descriptions, Result, Tag } from 'antd';
import { Link } from 'react-router';
import { useSession } from '../../lib/session.tsx';

/** Where a client lands after sign-in (navigation rule 3): what the account may do, and how to get more. */
export default function AccessControlPage() {
  const { userData } = useSession();
  if (!userData) return null;
  return (
    <Card>
      <Result
        status="info"
        title="Your access"
        subTitle="Your account is signed in with the permissions below. Dashboards appear in the menu once an administrator gives your role access to them."
      />
      <Descriptions bordered column={1} size="small">
        <Descriptions.Item label="Role">{userData.role}</Descriptions.Item>
        <Descriptions.Item label="Abilities">
          {userData.ability.map((a) => (
            <Tag key={`${a.action}:${a.resource}`}>
              {a.action} · {a.resource}
            </Tag>
          ))}
        </Descriptions.Item>
        <Descriptions.Item label="Need more?">
          Ask an administrator, or send a request from the <Link to="/apply">access request form</Link> when signed out.
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
