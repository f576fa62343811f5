import { type FakeZentao, startFakeZentao } from '@sextant/cli/zentao-shaped';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZentaoClient, ZentaoError } from '../../src/modules/zentao/client.ts';

const story = (id: number, product: number) => ({ id, title: `Story ${id}`, status: 'active', stage: 'wait', product });

/** The REST v1 client against a local server that answers as ZenTao's documented API does. */
describe('ZenTao client', () => {
  let zentao: FakeZentao;
  beforeAll(async () => {
    zentao = await startFakeZentao({
      account: 'importer',
      password: 'secret-pw',
      data: {
        products: [{ id: 7, name: 'Billing', code: 'BILL' }],
        stories: { 7: Array.from({ length: 230 }, (_, i) => story(i + 1, 7)) },
        testcases: { 7: [{ id: 5, title: 'Refund', story: 3, type: 'feature', auto: 'no', product: 7 }] },
      },
    });
  });
  afterAll(async () => zentao?.close());
  const client = (password = 'secret-pw') => new ZentaoClient({ url: zentao.url, account: 'importer', password });

  it('signs in once and reads every page of a list', async () => {
    zentao.calls.length = 0;
    const stories = await client().stories(7);
    expect(stories.map((s) => s.id)).toEqual(Array.from({ length: 230 }, (_, i) => i + 1));
    expect(zentao.calls).toEqual([
      'POST /tokens',
      'GET /products/7/stories?page=1&limit=100',
      'GET /products/7/stories?page=2&limit=100',
      'GET /products/7/stories?page=3&limit=100',
    ]);
  });

  it('reads products and test cases in ZenTao field names', async () => {
    const c = client();
    expect(await c.products()).toEqual([{ id: 7, name: 'Billing', code: 'BILL' }]);
    expect(await c.testCases(7)).toEqual([
      { id: 5, title: 'Refund', story: 3, type: 'feature', auto: 'no', product: 7 },
    ]);
  });

  it('signs in again once when the token expired (401), then goes on', async () => {
    const c = client();
    await c.products();
    zentao.expireTokens();
    zentao.calls.length = 0;
    expect(await c.testCases(7)).toHaveLength(1);
    expect(zentao.calls).toEqual([
      'GET /products/7/testcases?page=1&limit=100',
      'POST /tokens',
      'GET /products/7/testcases?page=1&limit=100',
    ]);
  });

  it("reports ZenTao's own error for a wrong password, a failing call and an unknown product", async () => {
    await expect(client('wrong').products()).rejects.toThrow(
      /refused the sign-in of account "importer": 登录失败，请检查您的用户名或密码是否填写正确。/,
    );
    const c = client();
    zentao.failNext('/products');
    await expect(c.products()).rejects.toThrow('ZenTao answered GET /products: Database error: server has gone away.');
    await expect(c.stories(99)).rejects.toThrow('ZenTao answered GET /products/99/stories: Not found.');
  });

  it('says so when nothing answers at the address', async () => {
    const gone = new ZentaoClient({ url: 'http://127.0.0.1:9/', account: 'a', password: 'b' });
    const failure = await gone.products().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ZentaoError);
    expect((failure as Error).message).toBe('ZenTao at http://127.0.0.1:9/ cannot be reached (cannot connect).');
  });
});
