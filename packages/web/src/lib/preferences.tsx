import { STORAGE_KEYS } from '@sextant/api';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

export const SKINS = ['light', 'dark', 'semi-dark', 'bordered'] as const;
export const LAYOUTS = ['vertical', 'horizontal'] as const;
export const CONTENT_WIDTHS = ['full', 'boxed'] as const;
export const NAVBAR_TYPES = ['floating', 'sticky', 'static', 'hidden'] as const;
export const FOOTER_TYPES = ['static', 'sticky', 'hidden'] as const;
export const TRANSITIONS = ['zoom-fade', 'fade', 'fade-bottom', 'none'] as const;

export type Preferences = {
  skin: (typeof SKINS)[number];
  layout: (typeof LAYOUTS)[number];
  contentWidth: (typeof CONTENT_WIDTHS)[number];
  navbarType: (typeof NAVBAR_TYPES)[number];
  footerType: (typeof FOOTER_TYPES)[number];
  routerTransition: (typeof TRANSITIONS)[number];
  menuCollapsed: boolean;
  scrollTop: boolean;
  customizer: boolean;
};

/** Layout defaults of specification point 9. */
export const DEFAULT_PREFERENCES: Preferences = {
  skin: 'light',
  layout: 'vertical',
  contentWidth: 'full',
  navbarType: 'floating',
  footerType: 'static',
  routerTransition: 'zoom-fade',
  menuCollapsed: false,
  scrollTop: true,
  customizer: true,
};

const PREFERENCES_KEY = 'sextant.preferences';

function load(): Preferences {
  let stored: Partial<Preferences> = {};
  try {
    stored = JSON.parse(localStorage.getItem(PREFERENCES_KEY) ?? '{}') as Partial<Preferences>;
  } catch {
    stored = {};
  }
  const skin = localStorage.getItem(STORAGE_KEYS.skin);
  const merged = { ...DEFAULT_PREFERENCES, ...stored };
  if (skin && (SKINS as readonly string[]).includes(skin)) merged.skin = skin as Preferences['skin'];
  return merged;
}

type PreferencesValue = Preferences & { update(patch: Partial<Preferences>): void; reset(): void };
const PreferencesContext = createContext<PreferencesValue | null>(null);

/** The customizer's choices, kept per browser; the skin also under its own key (point 3). */
export function PreferencesProvider({ children }: { children: ReactNode }) {
  const [preferences, setPreferences] = useState(load);
  const save = useCallback((next: Preferences) => {
    localStorage.setItem(PREFERENCES_KEY, JSON.stringify(next));
    localStorage.setItem(STORAGE_KEYS.skin, next.skin);
    setPreferences(next);
  }, []);
  const value = useMemo(
    () => ({
      ...preferences,
      update: (patch: Partial<Preferences>) => save({ ...preferences, ...patch }),
      reset: () => save(DEFAULT_PREFERENCES),
    }),
    [preferences, save],
  );
  return <PreferencesContext.Provider value={value}>{children}</PreferencesContext.Provider>;
}

export function usePreferences(): PreferencesValue {
  const value = useContext(PreferencesContext);
  if (!value) throw new Error('usePreferences outside PreferencesProvider');
  return value;
}
