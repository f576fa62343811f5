import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';

export default function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title="Page not found"
      subTitle="The address does not match any Sextant screen."
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          Back home
        </Button>
      }
    />
  );
}
