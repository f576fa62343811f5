/** The API's paths. The specification's calls (point 7) keep their exact spelling. */
export const API = {
  login: '/api/login',
  refreshToken: '/api/refreshToken',
  register: '/api/jwt/register',
  logout: '/api/jwt/logout',
  me: '/api/me',
  myProfile: '/api/me/profile',
  myPassword: '/api/me/password',
  about: '/api/about',
  resetPassword: '/api/resetPassword',
  settings: '/api/settings',
  users: '/api/users',
  userResetLink: (userId: string) => `/api/users/${encodeURIComponent(userId)}/resetLink`,
  roles: '/api/roles',
  role: (roleId: string) => `/api/roles/${encodeURIComponent(roleId)}`,
  user: (userId: string) => `/api/users/${encodeURIComponent(userId)}`,
  searchReports: '/api/searchReports',
  getReport: '/api/getReport',
  getReportDetails: '/api/getReportDetails',
  docs: '/api/docs',
  ws: '/ws',
} as const;

/** Browser storage keys of specification points 3 and 9. */
export const STORAGE_KEYS = {
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  userData: 'userData',
  lastRouterPath: 'lastRouterPath',
  excellentGrade: 'excellentGrade',
  passingGrade: 'passingGrade',
  licenseVersion: 'licenseVersion',
  showJudgment: 'showJudgment',
  skin: 'skin',
  wsMaxHistoryLength: 'wsMaxHistoryLength',
} as const;
