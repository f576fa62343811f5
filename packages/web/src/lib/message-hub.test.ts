import type { Message } from '@sextant/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MessageHub } from './message-hub.ts';
import type { MessageConnectionOptions } from './stomp.ts';

/** A stand-in for the STOMP client: records each connection opened and lets the test deliver messages. */
function fakeOpener() {
  const connections: { options: MessageConnectionOptions; stopped: number }[] = [];
  const open = (options: MessageConnectionOptions) => {
    const connection = { options, stopped: 0 };
    connections.push(connection);
    return {
      stop: async () => {
        connection.stopped += 1;
      },
    };
  };
  return { open, connections };
}

const message = { id: 'm1', title: 't', text: 'x' } as Message;

describe('one STOMP connection per tab', () => {
  afterEach(() => vi.useRealTimers());

  it('the navbar and two report screens share one connection, and every listener hears each message', () => {
    vi.useFakeTimers();
    const { open, connections } = fakeOpener();
    const hub = new MessageHub(open);
    const heard: string[] = [];
    const stops = ['navbar', 'report list', 'dashboard'].map((who) => hub.listen(() => heard.push(who)));
    expect(hub.opened).toBe(1);
    connections[0]?.options.onMessage(message, '/all/messages');
    expect(heard).toEqual(['navbar', 'report list', 'dashboard']);
    stops[1]?.();
    connections[0]?.options.onMessage(message, '/all/messages');
    expect(heard.slice(3)).toEqual(['navbar', 'dashboard']);
    vi.runAllTimers();
    expect(connections[0]?.stopped).toBe(0);
    for (const stop of stops) stop();
    vi.runAllTimers();
    expect(connections[0]?.stopped).toBe(1);
    expect(hub.opened).toBe(1);
  });

  it('a screen that leaves and another that comes in the same task keep the connection', () => {
    vi.useFakeTimers();
    const { open, connections } = fakeOpener();
    const hub = new MessageHub(open);
    const first = hub.listen(() => {});
    first();
    const second = hub.listen(() => {});
    vi.runAllTimers();
    expect(hub.opened).toBe(1);
    expect(connections[0]?.stopped).toBe(0);
    second();
    vi.runAllTimers();
    hub.listen(() => {});
    expect(hub.opened).toBe(2);
  });

  it('state watchers hear the current state at once and every change', () => {
    const { open, connections } = fakeOpener();
    const hub = new MessageHub(open);
    const states: string[] = [];
    hub.watchState((state) => states.push(state));
    hub.listen(() => {});
    connections[0]?.options.onState('connecting');
    connections[0]?.options.onState('open');
    expect(states).toEqual(['closed', 'connecting', 'open']);
  });
});
