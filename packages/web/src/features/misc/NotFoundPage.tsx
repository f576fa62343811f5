import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTexts } from '../../lib/i18n.tsx';
import { miscTexts } from './texts.ts';

export default function NotFoundPage() {
  const navigate = useNavigate();
  const t = useTexts(miscTexts);
  return (
    <Result
      status="404"
      title={t.notFound}
      subTitle={t.notFoundDetail}
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          {t.backHome}
        </Button>
      }
    />
  );
}
