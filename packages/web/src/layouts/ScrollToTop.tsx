import { ArrowUpOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { useTexts } from '../lib/i18n.tsx';
import { layoutTexts } from './texts.ts';

/** Appears once the page has scrolled more than 250 px (specification point 9). */
export const SCROLL_TOP_THRESHOLD_PX = 250;

export function ScrollToTop() {
  const t = useTexts(layoutTexts);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const onScroll = () => setVisible(window.scrollY > SCROLL_TOP_THRESHOLD_PX);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  if (!visible) return null;
  return (
    <Button
      className="scroll-to-top"
      type="primary"
      shape="circle"
      icon={<ArrowUpOutlined />}
      aria-label={t.backToTop}
      onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
    />
  );
}
