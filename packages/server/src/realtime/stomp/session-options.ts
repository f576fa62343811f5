import type { Audience, Broker } from '../broker.ts';
import type { CodecLimits } from './frame-codec.ts';

/** What a STOMP session is given: its socket, who may sign in and receive what, and its limits. */
export type Transport = { send(data: Uint8Array): void; close(): void };
export type Principal = {
  userId: string;
  mayRead(destination: string): boolean;
  /** From the rights last read (at most `recheckMs` old). */
  mayReceive(audience: Audience): boolean;
  /** Reads the user's rights again; a reason when the socket must end (token refused, account disabled, rights changed). */
  recheck(): Promise<string | null>;
};

export type SessionOptions = {
  authenticate(token: string): Promise<Principal | null>;
  broker: Broker;
  limits?: CodecLimits;
  /** What the server offers: send a heart-beat every `sendMs`, expect one every `expectMs` (0 = off). */
  heartbeat?: { sendMs: number; expectMs: number };
  maxSubscriptions?: number;
  /** A socket that has not sent CONNECT by then is closed (default 10 s). */
  connectTimeoutMs?: number;
  /** Bytes a socket may send before it is signed in (default 8 KiB); beyond, it is closed. */
  preConnectMaxBytes?: number;
  /** How often a signed-in socket's rights are read again (default 2 s). */
  recheckMs?: number;
};

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_PRE_CONNECT_MAX_BYTES = 8 * 1024;
export const DEFAULT_RECHECK_MS = 2000;

/**
 * The heart-beats both sides keep (STOMP 1.2 §Heart-beating): the client offers `cx,cy`, the server
 * wants `sendMs,expectMs`; each direction runs at the larger of the two, or not at all when either is 0.
 */
export function negotiateHeartbeat(
  offered: string | undefined,
  server: { sendMs: number; expectMs: number },
): { outgoing: number; incoming: number } {
  const [cx = 0, cy = 0] = (offered ?? '0,0').split(',').map((n) => Number.parseInt(n, 10) || 0);
  return {
    outgoing: server.sendMs > 0 && cy > 0 ? Math.max(server.sendMs, cy) : 0,
    incoming: server.expectMs > 0 && cx > 0 ? Math.max(server.expectMs, cx) : 0,
  };
}
