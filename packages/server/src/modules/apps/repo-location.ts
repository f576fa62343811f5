import { lookup } from 'node:dns/promises';
import { realpath } from 'node:fs/promises';
import { BlockList, isIP } from 'node:net';
import { isAbsolute, relative, resolve } from 'node:path';

/** Where app repositories may be (issue 32, finding 10): SEXTANT_REPO_PATHS, SEXTANT_REPO_ALLOW_LOOPBACK. */
export type RepoPolicy = { localFolders: readonly string[]; allowLoopback: boolean };

/** A repository location the server refuses to reach; the message names the rule, never what is there. */
export class RepoLocationRefused extends Error {
  override name = 'RepoLocationRefused';
}

/** `-c` options git gets for a checked location: an https host pinned to the addresses checked. */
export type CheckedLocation = { gitConfig: string[] };

// Cloud metadata services answer credentials to whoever asks from the instance.
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);
const linkLocal = new BlockList();
linkLocal.addSubnet('169.254.0.0', 16, 'ipv4');
linkLocal.addSubnet('fe80::', 10, 'ipv6');
const metadata = new BlockList();
metadata.addAddress('169.254.169.254', 'ipv4');
metadata.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud
metadata.addAddress('fd00:ec2::254', 'ipv6'); // AWS over IPv6
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');
// 0.0.0.0 and :: reach the machine itself.
loopback.addSubnet('0.0.0.0', 8, 'ipv4');
loopback.addAddress('::', 'ipv6');

/** An IPv4 address written as IPv6 (::ffff:169.254.169.254) is judged as the IPv4 one. */
function plain(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return { address: mapped[1], family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

function refusal(address: string, policy: RepoPolicy): string | null {
  const { address: a, family } = plain(address);
  if (metadata.check(a, family)) return 'a cloud metadata address';
  if (linkLocal.check(a, family)) return 'a link-local address';
  if (!policy.allowLoopback && loopback.check(a, family)) return 'a loopback address (SEXTANT_REPO_ALLOW_LOOPBACK)';
  return null;
}

/** Host and port of an https, ssh or scp-like location (the forms isSafeRepoUrl accepts). */
function hostOf(url: string): { host: string; port: number | null; https: boolean } {
  if (url.startsWith('https://') || url.startsWith('ssh://')) {
    const parsed = new URL(url);
    return { host: parsed.hostname, port: parsed.port ? Number(parsed.port) : null, https: url.startsWith('https') };
  }
  const scp = /^[^@]+@([^:]+):/.exec(url);
  return { host: scp?.[1] ?? '', port: null, https: false };
}

function inside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

async function real(path: string): Promise<string> {
  return realpath(path).catch(() => resolve(path));
}

const LOOKUP_TIMEOUT_MS = 5000;

/** The host's addresses, none when it does not resolve in time (git then fails to reach it too). */
async function resolved(name: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string[]>((done) => {
    timer = setTimeout(() => done([]), LOOKUP_TIMEOUT_MS);
  });
  const found = lookup(name, { all: true, verbatim: true }).then(
    (entries) => entries.map((entry) => entry.address),
    () => [] as string[],
  );
  try {
    return await Promise.race([found, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks a location already valid by syntax (isSafeRepoUrl) against the policy before anything is
 * probed: a local path must lie inside an allowed folder (symbolic links followed), a host must not
 * be or resolve to a link-local, metadata or (unless allowed) loopback address. A name that does not
 * resolve passes: git will fail to reach it, and an https host is pinned to what was checked.
 */
export async function checkRepoLocation(url: string, policy: RepoPolicy): Promise<CheckedLocation> {
  if (url.startsWith('/')) {
    const path = await real(url);
    const folders = await Promise.all(policy.localFolders.map(real));
    if (!folders.some((folder) => inside(path, folder))) {
      throw new RepoLocationRefused('A local repository must lie inside a folder named in SEXTANT_REPO_PATHS.');
    }
    return { gitConfig: [] };
  }
  const { host, port, https } = hostOf(url);
  const name = host.toLowerCase().replace(/\.$/, '');
  if (METADATA_NAMES.has(name)) throw new RepoLocationRefused(`${host} is a cloud metadata service.`);
  // *.localhost names the machine itself (RFC 6761) wherever the resolver says otherwise.
  if (!policy.allowLoopback && name.endsWith('.localhost')) {
    throw new RepoLocationRefused(`${host} is a loopback address (SEXTANT_REPO_ALLOW_LOOPBACK).`);
  }
  const addresses = isIP(name) ? [name] : await resolved(name);
  for (const address of addresses) {
    const why = refusal(address, policy);
    if (why) throw new RepoLocationRefused(`${host} ${address === name ? 'is' : `resolves to`} ${why}.`);
  }
  if (!https || addresses.length === 0 || isIP(name)) return { gitConfig: [] };
  const pinned = addresses.map((address) => (isIP(address) === 6 ? `[${address}]` : address)).join(',');
  return { gitConfig: ['-c', `http.curloptResolve=${name}:${port ?? 443}:${pinned}`] };
}
