import type { ZentaoStatus } from '@sextant/api';

export type FrameVerdict = NonNullable<ZentaoStatus['frame']>;

/** Does a CSP host-source (`https://*.example.com:8443`, `example.com`, `https:`) match an origin? */
function sourceMatches(source: string, origin: URL, zentao: URL): boolean {
  const s = source.toLowerCase();
  if (s === '*') return true;
  if (s === "'self'") return origin.origin === zentao.origin;
  if (/^[a-z][a-z0-9+.-]*:$/.test(s)) return origin.protocol === s;
  const m = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*\.)?([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d+|\*))?(?:\/.*)?$/.exec(s);
  if (!m) return false;
  const [, scheme, wildcard, host = '', port] = m;
  if (scheme && `${scheme}:` !== origin.protocol && !(scheme === 'http' && origin.protocol === 'https:')) return false;
  const hostOk = wildcard ? origin.hostname.endsWith(`.${host}`) : origin.hostname === host;
  if (!hostOk) return false;
  if (port === '*') return true;
  const defaultPort = origin.protocol === 'https:' ? '443' : '80';
  return (port ?? (scheme ? (scheme === 'https' ? '443' : '80') : defaultPort)) === (origin.port || defaultPort);
}

/**
 * Whether a browser showing our page at one of `ours` (origins) would render ZenTao's answer in a frame:
 * CSP `frame-ancestors` decides when present (browsers then ignore X-Frame-Options), else
 * X-Frame-Options: DENY refuses, SAMEORIGIN refuses unless ZenTao is on our origin.
 */
export function frameVerdict(headers: Headers, zentaoUrl: string, ours: string[]): FrameVerdict {
  const zentao = new URL(zentaoUrl);
  const origins = ours.map((o) => new URL(o));
  const ancestors = (headers.get('content-security-policy') ?? '')
    .split(/[;,]/)
    .map((d) => d.trim().split(/\s+/))
    .find(([name]) => name?.toLowerCase() === 'frame-ancestors');
  if (ancestors) {
    const sources = ancestors.slice(1);
    const allowed = origins.some((o) => sources.some((s) => sourceMatches(s, o, zentao)));
    return allowed
      ? { verdict: 'allowed', detail: `frame-ancestors ${sources.join(' ')}` }
      : { verdict: 'frame-ancestors', detail: `frame-ancestors ${sources.join(' ') || "'none'"}` };
  }
  const xfo = headers.get('x-frame-options')?.trim();
  if (xfo) {
    const value = xfo.split(',')[0]?.trim().toUpperCase() ?? '';
    const sameOrigin = origins.some((o) => o.origin === zentao.origin);
    if (value === 'DENY' || (value === 'SAMEORIGIN' && !sameOrigin) || value.startsWith('ALLOW-FROM')) {
      return { verdict: 'x-frame-options', detail: `X-Frame-Options: ${xfo}` };
    }
  }
  return { verdict: 'allowed', detail: xfo ? `X-Frame-Options: ${xfo}` : 'no framing restriction' };
}

const CHECK_TIMEOUT_MS = 5000;

/** Asks ZenTao's address once (as the frame would) and judges its headers; unreachable shows the card. */
export async function checkFrame(zentaoUrl: string, ours: string[], fetchImpl: typeof fetch = fetch) {
  try {
    const res = await fetchImpl(zentaoUrl, {
      method: 'GET',
      redirect: 'follow',
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
    await res.body?.cancel();
    return frameVerdict(res.headers, zentaoUrl, ours);
  } catch (error) {
    const why = error instanceof Error && error.name === 'TimeoutError' ? 'no answer in time' : 'cannot connect';
    return { verdict: 'unreachable', detail: why } satisfies FrameVerdict;
  }
}
