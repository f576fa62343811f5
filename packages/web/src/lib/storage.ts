import { type Settings, STORAGE_KEYS, type UserData } from '@sextant/api';

/** The browser-stored session of specification point 3, under its exact keys. */
export const sessionStore = {
  accessToken: () => localStorage.getItem(STORAGE_KEYS.accessToken),
  refreshToken: () => localStorage.getItem(STORAGE_KEYS.refreshToken),
  setTokens(accessToken: string, refreshToken: string) {
    localStorage.setItem(STORAGE_KEYS.accessToken, accessToken);
    localStorage.setItem(STORAGE_KEYS.refreshToken, refreshToken);
  },
  userData(): UserData | null {
    const raw = localStorage.getItem(STORAGE_KEYS.userData);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as UserData;
    } catch {
      return null;
    }
  },
  setUserData(userData: UserData) {
    localStorage.setItem(STORAGE_KEYS.userData, JSON.stringify(userData));
  },
  /** Settings live under their own keys (point 3); showJudgment is the string 'true' when on (point 6). */
  setSettings(settings: Settings) {
    localStorage.setItem(STORAGE_KEYS.excellentGrade, String(settings.excellentGrade));
    localStorage.setItem(STORAGE_KEYS.passingGrade, String(settings.passingGrade));
    localStorage.setItem(STORAGE_KEYS.licenseVersion, settings.licenseVersion);
    localStorage.setItem(STORAGE_KEYS.showJudgment, String(settings.showJudgment));
    localStorage.setItem(STORAGE_KEYS.wsMaxHistoryLength, String(settings.wsMaxHistoryLength));
    localStorage.setItem('settings', JSON.stringify(settings));
  },
  settings(): Settings | null {
    const raw = localStorage.getItem('settings');
    if (!raw) return null;
    try {
      return JSON.parse(raw) as Settings;
    } catch {
      return null;
    }
  },
  /** Navigation rule 2 stores the wanted path; rule 3 uses it once. */
  rememberWantedPath(path: string) {
    localStorage.setItem(STORAGE_KEYS.lastRouterPath, path);
  },
  takeWantedPath(): string | null {
    const path = localStorage.getItem(STORAGE_KEYS.lastRouterPath);
    localStorage.removeItem(STORAGE_KEYS.lastRouterPath);
    return path;
  },
  clear() {
    for (const key of [
      STORAGE_KEYS.accessToken,
      STORAGE_KEYS.refreshToken,
      STORAGE_KEYS.userData,
      STORAGE_KEYS.excellentGrade,
      STORAGE_KEYS.passingGrade,
      STORAGE_KEYS.licenseVersion,
      STORAGE_KEYS.showJudgment,
      STORAGE_KEYS.wsMaxHistoryLength,
      'settings',
    ]) {
      localStorage.removeItem(key);
    }
  },
};
