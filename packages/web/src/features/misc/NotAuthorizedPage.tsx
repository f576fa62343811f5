import { screenByName } from '@sextant/api';
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { landingPath } from '../../lib/navigation.ts';
import { useSession } from '../../lib/session.tsx';

export default function NotAuthorizedPage() {
  const navigate = useNavigate();
  const { userData, settings } = useSession();
  const home = landingPath(
    { userData, edition: settings.licenseVersion },
    null,
    screenByName('dashboard-observing-risky-items'),
  );
  return (
    <Result
      status="403"
      title="You are not authorized"
      subTitle="Your role does not include this screen, or your licence edition does not offer it. Ask an administrator if you need it."
      extra={
        <Button type="primary" onClick={() => navigate(home)}>
          Back home
        </Button>
      }
    />
  );
}
