import websocket from '@fastify/websocket';
import { API, WS_HEARTBEAT_MS } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { Principals } from '../modules/auth/principals.ts';
import type { AccessTokens } from '../modules/auth/tokens.ts';
import { Broker, type FanOut } from '../realtime/broker.ts';
import { serveStomp } from '../realtime/ws-endpoint.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Publishes real-time messages to connected clients (and, with Redis, to other instances). */
    broker: Broker;
  }
}

/**
 * The STOMP endpoint of specification point 7 at `/ws`. Browsers cannot set headers on a WebSocket,
 * so the access token travels in the CONNECT frame and is checked there, not on the upgrade.
 */
export async function registerRealtime(
  app: FastifyInstance,
  tokens: AccessTokens,
  principals: Principals,
  fanOut?: FanOut,
): Promise<void> {
  const broker = new Broker(fanOut);
  app.decorate('broker', broker);
  await app.register(websocket, { options: { maxPayload: 256 * 1024 } });
  app.get(API.ws, { websocket: true }, (socket) => {
    serveStomp(socket, {
      broker,
      authenticate: async (token) => {
        try {
          const userId = await tokens.verify(token);
          // A disabled account's unexpired token must not open a socket either.
          if (!(await principals.load(userId))) return null;
          return { userId, mayRead: () => true };
        } catch {
          return null;
        }
      },
      heartbeat: { sendMs: WS_HEARTBEAT_MS, expectMs: WS_HEARTBEAT_MS },
    });
  });
}
