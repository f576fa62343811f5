import { describe, expect, it } from 'vitest';
import { caseInBaggage, factsOf, interfaceOf } from '../../src/modules/traces/normalise.ts';
import type { DecodedSpan } from '../../src/modules/traces/otlp-model.ts';

describe("a span's interface, from both generations of the semantic conventions (issue 36)", () => {
  it.each([
    [{ 'http.request.method': 'GET', 'http.route': '/orders/:id', 'url.path': '/orders/7' }, 'GET /orders/:id'],
    [{ 'http.method': 'post', 'http.target': '/orders/7/lines?x=1' }, 'POST /orders/{id}/lines'],
    [{ 'http.request.method': 'GET', 'url.path': '/u/3f2504e0-4f89-11d3-9a0c-0305e82c3301' }, 'GET /u/{id}'],
    [{ 'http.method': 'GET', 'http.url': 'https://shop.example/orders/12?y=2' }, 'GET /orders/{id}'],
    [
      { 'http.request.method': '_OTHER', 'http.request.method_original': 'PURGE', 'http.route': '/cache' },
      'PURGE /cache',
    ],
    [{ 'http.request.method': 'GET' }, 'GET'],
    [{ 'rpc.system': 'grpc', 'rpc.service': 'shop.Orders', 'rpc.method': 'Get' }, 'shop.Orders/Get'],
    [{ 'rpc.method': 'shop.Orders/Get' }, 'shop.Orders/Get'],
    [{ 'messaging.destination.name': 'orders', 'messaging.operation.type': 'publish' }, 'publish orders'],
    [{ 'messaging.destination': 'orders', 'messaging.operation': 'receive' }, 'receive orders'],
    [{ 'db.system': 'postgresql' }, null],
  ])('%j → %s', (attributes, expected) => {
    expect(interfaceOf(attributes)).toBe(expected);
  });
});

describe('code location, exception and test case', () => {
  const span = (attributes: DecodedSpan['attributes'], events: DecodedSpan['events'] = []): DecodedSpan => ({
    traceId: 'a'.repeat(32),
    spanId: 'b'.repeat(16),
    parentSpanId: null,
    name: 'x',
    kind: 1,
    startNs: 0n,
    endNs: 0n,
    statusCode: 0,
    statusMessage: '',
    attributes,
    events,
    links: [],
  });

  it('reads the old code attributes as the new ones', () => {
    const old = factsOf(
      span({
        'code.namespace': 'shop.Orders',
        'code.function': 'get',
        'code.filepath': 'Orders.java',
        'code.lineno': 12,
      }),
      {},
    );
    const current = factsOf(
      span({ 'code.function.name': 'shop.Orders.get', 'code.file.path': 'Orders.java', 'code.line.number': 12 }),
      {},
    );
    for (const facts of [old, current]) {
      expect(facts).toMatchObject({ codeFunction: 'shop.Orders.get', codeFile: 'Orders.java', codeLine: 12 });
    }
  });

  it('takes the first exception event, and the test case from the attribute, the resource or captured baggage', () => {
    const events: DecodedSpan['events'] = [
      { timeNs: 1n, name: 'log', attributes: {} },
      {
        timeNs: 2n,
        name: 'exception',
        attributes: { 'exception.type': 'E', 'exception.message': 'm', 'exception.stacktrace': 's' },
      },
    ];
    expect(factsOf(span({}, events), {})).toMatchObject({
      exceptionType: 'E',
      exceptionMessage: 'm',
      exceptionStack: 's',
    });
    expect(factsOf(span({ 'test.case.id': 'A' }), { 'test.case.id': 'B' }).testCase).toBe('A');
    expect(factsOf(span({}), { 'test.case.id': 'B' }).testCase).toBe('B');
    expect(factsOf(span({ 'http.request.header.baggage': ['user=1,test.case.id=CASE%2042;p=1'] }), {}).testCase).toBe(
      'CASE 42',
    );
    expect(caseInBaggage('user=1')).toBeNull();
    expect(caseInBaggage('test.case.id=50%')).toBe('50%');
  });
});
