import {
  DEFAULT_SETTINGS,
  type LoginResponse,
  MeResponseSchema,
  NoDataSchema,
  PATHS,
  ProfileSchema,
  type Settings,
  type UserData,
} from '@sextant/api';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { createApiClient } from './api-client.ts';
import { type Locale, useLocale } from './i18n.tsx';
import { sessionStore } from './storage.ts';

const expiryListeners = new Set<() => void>();

/** The one API client of the app; a failed refresh tells every mounted session to sign out. */
export const api = createApiClient({
  store: sessionStore,
  onSessionExpired: () => {
    for (const listener of expiryListeners) listener();
  },
});

type SessionValue = {
  userData: UserData | null;
  settings: Settings;
  /** True after the user chose to sign out: the page left behind is not a wanted path (rule 2). */
  signedOutByUser: boolean;
  signIn(answer: LoginResponse): void;
  /** Settings saved on this screen take effect at once. */
  refreshSettings(settings: Settings): void;
  signOut(): Promise<void>;
  /** Remembers the language for this user (person settings and the navbar switch). */
  saveLanguage(locale: Locale): Promise<void>;
};

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const [userData, setUserData] = useState<UserData | null>(() =>
    sessionStore.accessToken() ? sessionStore.userData() : null,
  );
  const [settings, setSettings] = useState<Settings>(() => sessionStore.settings() ?? DEFAULT_SETTINGS);
  const [signedOutByUser, setSignedOutByUser] = useState(false);
  const { setLocale } = useLocale();

  useEffect(() => {
    const onExpired = () => {
      setUserData(null);
      navigate('/login', { replace: true });
    };
    expiryListeners.add(onExpired);
    return () => {
      expiryListeners.delete(onExpired);
    };
  }, [navigate]);

  // Abilities and settings may have changed since sign-in: take the server's current view once.
  useEffect(() => {
    if (!sessionStore.accessToken()) return;
    api
      .get(PATHS.me, MeResponseSchema)
      .then((me) => {
        sessionStore.setUserData(me.userData);
        sessionStore.setSettings(me.settings);
        setUserData(me.userData);
        setSettings(me.settings);
        if (me.profile.preferences.language) setLocale(me.profile.preferences.language);
      })
      .catch(() => {});
  }, [setLocale]);

  const signIn = useCallback(
    (answer: LoginResponse) => {
      sessionStore.setTokens(answer.accessToken, answer.refreshToken);
      sessionStore.setUserData(answer.userData);
      sessionStore.setSettings(answer.settings);
      setUserData(answer.userData);
      setSettings(answer.settings);
      setSignedOutByUser(false);
      // The user's remembered language follows them to every browser.
      api
        .get(PATHS.me, MeResponseSchema)
        .then((me) => {
          if (me.profile.preferences.language) setLocale(me.profile.preferences.language);
        })
        .catch(() => {});
    },
    [setLocale],
  );

  const saveLanguage = useCallback(async (locale: Locale) => {
    if (!sessionStore.accessToken()) return;
    await api.patch(PATHS.myProfile, ProfileSchema, { preferences: { language: locale } }).catch(() => {});
  }, []);

  const refreshSettings = useCallback((next: Settings) => {
    sessionStore.setSettings(next);
    setSettings(next);
  }, []);

  const signOut = useCallback(async () => {
    const refreshToken = sessionStore.refreshToken();
    try {
      if (refreshToken) await api.post(PATHS.logout, NoDataSchema, { refreshToken });
    } catch {
      // the session ends here whatever the server says
    }
    sessionStore.clear();
    setSignedOutByUser(true);
    setUserData(null);
    navigate('/login', { replace: true });
  }, [navigate]);

  const value = useMemo(
    () => ({ userData, settings, signedOutByUser, signIn, refreshSettings, signOut, saveLanguage }),
    [userData, settings, signedOutByUser, signIn, refreshSettings, signOut, saveLanguage],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}
