import { screenByName } from '@sextant/api';
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTexts } from '../../lib/i18n.tsx';
import { landingPath } from '../../lib/navigation.ts';
import { useSession } from '../../lib/session.tsx';
import { miscTexts } from './texts.ts';

export default function NotAuthorizedPage() {
  const navigate = useNavigate();
  const t = useTexts(miscTexts);
  const { userData, settings } = useSession();
  const home = landingPath(
    { userData, edition: settings.licenseVersion },
    null,
    screenByName('dashboard-observing-risky-items'),
  );
  return (
    <Result
      status="403"
      title={t.notAuthorized}
      subTitle={t.notAuthorizedDetail}
      extra={
        <Button type="primary" onClick={() => navigate(home)}>
          {t.backHome}
        </Button>
      }
    />
  );
}
