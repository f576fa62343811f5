import { ENGLISH_JVM_WORDS, type ReportDetail } from '@sextant/api';
import { describe, expect, it } from 'vitest';
import { detailName } from './detail-names.ts';

const row = (over: Partial<ReportDetail>): ReportDetail =>
  ({ kind: 'class', name: '', filePath: null, classId: '', ...over }) as ReportDetail;

describe('detailName', () => {
  const alerts = row({
    id: '1',
    name: 'demo/inventory/Alerts$Rule',
    filePath: 'src/main/java/demo/inventory/Alerts.java',
  });

  it('names a Java class by its simple name, its package dotted', () => {
    expect(detailName(alerts, ENGLISH_JVM_WORDS)).toEqual({ main: 'Alerts.Rule', rest: 'demo.inventory' });
  });

  it('names a Java method as source does, its constructor after the class', () => {
    const method = (name: string) => row({ kind: 'method', name, filePath: alerts.filePath, classId: '1' });
    expect(detailName(method('<init>(Ldemo/inventory/Stock;)V'), ENGLISH_JVM_WORDS, alerts).main).toBe('Rule(Stock)');
    expect(detailName(method('summary(I)Ljava/lang/String;'), ENGLISH_JVM_WORDS, alerts).main).toBe(
      'summary(int): String',
    );
    const siblings = ['check(Ldemo/Stock;)Z', 'lambda$check$0(I)Z'];
    expect(detailName(method('lambda$check$0(I)Z'), ENGLISH_JVM_WORDS, alerts, siblings).main).toBe(
      'lambda in check(Stock)',
    );
  });

  it('leaves other languages as the report names them', () => {
    const file = row({ name: 'src/lib/cart.ts', filePath: 'src/lib/cart.ts' });
    expect(detailName(file, ENGLISH_JVM_WORDS)).toEqual({ main: 'cart.ts', rest: 'src/lib' });
    const fn = row({ kind: 'method', name: 'total(I)V', filePath: 'src/lib/cart.ts' });
    expect(detailName(fn, ENGLISH_JVM_WORDS, file).main).toBe('total(I)V');
    expect(detailName(row({ name: 'com.acme.Foo', filePath: 'com/acme/Foo.py' }), ENGLISH_JVM_WORDS)).toEqual({
      main: 'Foo',
      rest: 'com.acme',
    });
  });
});
