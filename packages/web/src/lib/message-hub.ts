import { MeResponseSchema, type Message, PATHS } from '@sextant/api';
import { api } from './session.tsx';
import { type ConnectionState, openMessageConnection } from './stomp.ts';
import { sessionStore } from './storage.ts';

export type MessageListener = (message: Message, destination: string) => void;
export type StateListener = (state: ConnectionState, error: string | null) => void;

type Opener = typeof openMessageConnection;

/**
 * One STOMP connection per browser tab (issue 41): the navbar's message centre, the report screens and
 * the dashboard listen on the same connection instead of each opening their own. It opens with the first
 * listener and closes when the last one leaves (after the current task, so a screen that re-subscribes
 * in the same render pass does not reconnect).
 */
export class MessageHub {
  private readonly listeners = new Set<MessageListener>();
  private readonly stateListeners = new Set<StateListener>();
  private connection: { stop: () => Promise<void> } | null = null;
  private closing: ReturnType<typeof setTimeout> | null = null;
  private state: ConnectionState = 'closed';
  private error: string | null = null;
  /** How many connections this hub has opened (tests read it). */
  opened = 0;

  constructor(private readonly open: Opener = openMessageConnection) {}

  /** Listens to every message; the returned function stops listening. */
  listen(listener: MessageListener): () => void {
    this.listeners.add(listener);
    this.ensureOpen();
    return () => {
      this.listeners.delete(listener);
      this.closeWhenIdle();
    };
  }

  /** Listens to the connection's state (told the current one at once). */
  watchState(listener: StateListener): () => void {
    this.stateListeners.add(listener);
    listener(this.state, this.error);
    return () => {
      this.stateListeners.delete(listener);
    };
  }

  private ensureOpen(): void {
    if (this.closing) {
      clearTimeout(this.closing);
      this.closing = null;
    }
    if (this.connection) return;
    this.opened += 1;
    this.connection = this.open({
      token: () => sessionStore.accessToken(),
      onMessage: (message, destination) => {
        for (const listener of [...this.listeners]) listener(message, destination);
      },
      onState: (state, error) => {
        this.state = state;
        this.error = error ?? null;
        for (const listener of [...this.stateListeners]) listener(state, this.error);
      },
      // Any API call refreshes an expired access token (point 4); the next CONNECT carries the new one.
      onRefused: async () => {
        await api.get(PATHS.me, MeResponseSchema).catch(() => {});
      },
    });
  }

  private closeWhenIdle(): void {
    if (this.listeners.size > 0 || this.closing) return;
    this.closing = setTimeout(() => {
      this.closing = null;
      if (this.listeners.size > 0 || !this.connection) return;
      const connection = this.connection;
      this.connection = null;
      this.state = 'closed';
      this.error = null;
      for (const listener of [...this.stateListeners]) listener('closed', null);
      void connection.stop();
    }, 0);
  }
}

/** The tab's hub. */
export const messageHub = new MessageHub();
