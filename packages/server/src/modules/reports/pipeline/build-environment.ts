const STANDARD_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * A build's environment, built from nothing (issue 32, finding 1): never the server's own, which
 * holds its database URL, admin password and signing key. PATH and LANG as the server has them, a
 * throw-away HOME and TMPDIR, CI=true, no git prompt, and only the server variables the operator
 * named in SEXTANT_BUILD_ENV_PASS (a name the server does not have is left out).
 */
export function buildEnvironment(opts: {
  home: string;
  tmp: string;
  pass: readonly string[];
  server?: NodeJS.ProcessEnv;
}): NodeJS.ProcessEnv {
  const server = opts.server ?? process.env;
  const env: NodeJS.ProcessEnv = {};
  for (const name of opts.pass) {
    const value = server[name];
    if (value !== undefined) env[name] = value;
  }
  return {
    ...env,
    PATH: server.PATH || STANDARD_PATH,
    HOME: opts.home,
    TMPDIR: opts.tmp,
    LANG: server.LANG || 'C.UTF-8',
    CI: 'true',
    GIT_TERMINAL_PROMPT: '0',
  };
}
