import { type Screen, screenByName } from '@sextant/api';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { guard, landingPath } from '../lib/navigation.ts';
import { useScreenTitle } from '../lib/screen-texts.ts';
import { useSession } from '../lib/session.tsx';
import { sessionStore } from '../lib/storage.ts';
import { ScreenLoader } from './ScreenLoader.tsx';

const home = () => screenByName('dashboard-observing-risky-items');

/** Applies navigation rules 1, 2 and 4 before a screen loads. */
export function GuardedScreen({ screen }: { screen: Screen }) {
  const { userData, settings, signedOutByUser } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const visitor = { userData, edition: settings.licenseVersion };
  const decision = guard(visitor, screen);
  const redirected = useRef(false);

  useEffect(() => {
    // One redirect per mount: the wanted path is stored, or taken, exactly once.
    if (decision.kind === 'allow' || redirected.current) return;
    redirected.current = true;
    if (decision.rememberWanted && !signedOutByUser)
      sessionStore.rememberWantedPath(location.pathname + location.search);
    const to = decision.to === 'landing' ? landingPath(visitor, sessionStore.takeWantedPath(), home()) : decision.to;
    navigate(to, { replace: true });
  });

  const title = useScreenTitle(screen);
  useEffect(() => {
    document.title = `${title} · Sextant`;
  }, [title]);

  if (decision.kind !== 'allow') return null;
  return <ScreenLoader screen={screen} />;
}
