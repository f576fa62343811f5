import websocket from '@fastify/websocket';
import { PATHS, WS_HEARTBEAT_MS } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { mayReceive, reportReaderOf, rightsFingerprint, type TeamIdsOf } from '../modules/messages/readers.ts';
import { Broker, type FanOut } from '../realtime/broker.ts';
import type { Principal, StompSession } from '../realtime/stomp/session.ts';
import { serveStomp } from '../realtime/ws-endpoint.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Publishes real-time messages to connected clients (and, with Redis, to other instances). */
    broker: Broker;
  }
}

/** The ERROR frame's message when the server shuts down (the web app reconnects on any ERROR). */
export const SHUTDOWN_REASON = 'server shutting down; connect again';
/** How long a client has, on shutdown, to answer the WebSocket close handshake before its socket is ended. */
const CLOSE_HANDSHAKE_GRACE_MS = 1000;

export type RealtimeOptions = {
  fanOut?: FanOut;
  /** Told of each socket opened and closed (the metrics' connection gauge). */
  connections?: { opened(): void; closed(): void };
  /** A socket must send CONNECT within this time (SEXTANT_WS_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
  /** A signed-in socket's token and rights are checked again this often (SEXTANT_WS_RECHECK_MS). */
  recheckMs?: number;
};

/**
 * The socket's principal: the rights it was opened with, read again every `recheckMs` through the same
 * check every API request passes (`app.principalOf`). A refused token, a disabled account or changed
 * rights end the socket; the client connects again with what it may now read.
 */
async function socketPrincipal(app: FastifyInstance, token: string, teamIdsOf: TeamIdsOf): Promise<Principal | null> {
  let signedIn: Awaited<ReturnType<FastifyInstance['principalOf']>>;
  try {
    signedIn = await app.principalOf(token);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
  const reader = await reportReaderOf(signedIn, teamIdsOf);
  const opened = rightsFingerprint(reader);
  return {
    userId: signedIn.userData.userid,
    mayRead: () => true,
    mayReceive: (audience) => mayReceive(reader, audience),
    recheck: async () => {
      let now: typeof signedIn;
      try {
        now = await app.principalOf(token);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 401)) throw error;
        return error.error === 'token-expired'
          ? 'the access token expired; connect again with a fresh one'
          : 'this sign-in is no longer valid';
      }
      return rightsFingerprint(await reportReaderOf(now, teamIdsOf)) === opened
        ? null
        : 'your rights changed; connect again';
    },
  };
}

/**
 * The STOMP endpoint of specification point 7 at `/ws`. Browsers cannot set headers on a WebSocket,
 * so the access token travels in the CONNECT frame and is checked there, not on the upgrade.
 */
export async function registerRealtime(
  app: FastifyInstance,
  teamIdsOf: TeamIdsOf,
  options: RealtimeOptions = {},
): Promise<void> {
  const broker = new Broker(options.fanOut);
  app.decorate('broker', broker);
  const sessions = new Set<StompSession>();
  await app.register(websocket, {
    options: { maxPayload: 256 * 1024 },
    // Graceful shutdown: before the server stops, every client is told to connect again (to another
    // web process behind the load balancer, or to this one once restarted), then its socket closes.
    preClose(done) {
      for (const session of sessions) session.end(SHUTDOWN_REASON);
      const server = this.websocketServer;
      for (const client of server.clients) {
        client.close();
        // A client that never answers the close handshake (a frozen tab, a lost network) would hold the
        // port's close for ws's 30 s, past the shutdown's own limit: its socket is ended after a grace.
        setTimeout(() => client.terminate(), CLOSE_HANDSHAKE_GRACE_MS).unref();
      }
      // As the plugin's own: no wait for clients' close handshakes here.
      server.close();
      done();
    },
  });
  app.get(PATHS.ws, { websocket: true }, (socket) => {
    options.connections?.opened();
    socket.once('close', () => options.connections?.closed());
    const session = serveStomp(socket, {
      broker,
      // A database error refuses the connection, as a bad token does; the client tries again later.
      authenticate: (token) => socketPrincipal(app, token, teamIdsOf).catch(() => null),
      heartbeat: { sendMs: WS_HEARTBEAT_MS, expectMs: WS_HEARTBEAT_MS },
      ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
      ...(options.recheckMs === undefined ? {} : { recheckMs: options.recheckMs }),
    });
    sessions.add(session);
    socket.once('close', () => sessions.delete(session));
  });
}
