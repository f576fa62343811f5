import { createHash, randomBytes } from 'node:crypto';

/** A new ingestion token and its sha256, the only form the server keeps. */
export function issueIngestionToken(): { token: string; hash: string } {
  const token = `sxi_${randomBytes(32).toString('base64url')}`;
  return { token, hash: ingestionTokenHash(token) };
}

export function ingestionTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
