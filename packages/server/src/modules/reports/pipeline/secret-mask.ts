/** A server environment variable whose value is a secret by its name (as CI systems guess them). */
const SECRET_NAME = /PASSWORD|PASSWD|SECRET|TOKEN|KEY|CREDENTIAL/i;

// Shorter values ("1", "true") would mask ordinary words of every build log.
const SHORTEST_SECRET = 6;

/**
 * The values a build's output must never show: the given ones (the JWT signing key, the admin
 * password, the database and Redis URLs), the passwords inside those URLs, and every variable of the
 * server's environment whose name looks secret. URL passwords are listed as written and decoded.
 */
export function serverSecrets(given: readonly (string | undefined)[], env: NodeJS.ProcessEnv): string[] {
  const values = new Set<string>();
  const add = (value: string | undefined) => {
    if (value && value.length >= SHORTEST_SECRET) values.add(value);
  };
  const named = Object.entries(env)
    .filter(([name]) => SECRET_NAME.test(name))
    .map(([, value]) => value);
  for (const value of [...given, env.DATABASE_URL, env.REDIS_URL, env.SEXTANT_ADMIN_PASSWORD, ...named]) {
    add(value);
    for (const part of urlCredentials(value)) add(part);
  }
  return [...values];
}

function urlCredentials(value: string | undefined): string[] {
  if (!value?.includes('://')) return [];
  try {
    const url = new URL(value);
    return url.password ? [url.password, decodeURIComponent(url.password)] : [];
  } catch {
    return [];
  }
}

/**
 * Every occurrence of a secret replaced by `***`. Occurrences are found in the original text and
 * overlapping or touching ones merge into one mask, so no secret leaves a visible piece behind
 * (masking one after another would let a secret overlapping an earlier one through in part).
 */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  const spans: [number, number][] = [];
  for (const secret of secrets) {
    if (secret === '') continue;
    for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) {
      spans.push([at, at + secret.length]);
    }
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let masked = '';
  let shown = 0;
  let current: [number, number] | null = null;
  for (const span of spans) {
    if (current && span[0] <= current[1]) {
      current[1] = Math.max(current[1], span[1]);
      continue;
    }
    if (current) {
      masked += `${text.slice(shown, current[0])}***`;
      shown = current[1];
    }
    current = [span[0], span[1]];
  }
  if (current) {
    masked += `${text.slice(shown, current[0])}***`;
    shown = current[1];
  }
  return masked + text.slice(shown);
}
