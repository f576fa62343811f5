import { describe, expect, it } from 'vitest';
import { frameVerdict } from '../../src/modules/zentao/frame-check.ts';

const ours = ['http://sextant.example:8080', 'https://sextant.example:8080'];
const verdict = (headers: Record<string, string>, zentao = 'https://zentao.example.com/') =>
  frameVerdict(new Headers(headers), zentao, ours).verdict;

/** Whether a browser would let /zentao frame ZenTao's answer, judged from its headers. */
describe('frame check', () => {
  it('allows a page without framing rules', () => {
    expect(verdict({})).toBe('allowed');
  });

  it('refuses X-Frame-Options DENY, SAMEORIGIN elsewhere and the obsolete ALLOW-FROM', () => {
    expect(verdict({ 'x-frame-options': 'DENY' })).toBe('x-frame-options');
    expect(verdict({ 'x-frame-options': 'sameorigin' })).toBe('x-frame-options');
    expect(verdict({ 'x-frame-options': 'ALLOW-FROM https://sextant.example:8080' })).toBe('x-frame-options');
    expect(verdict({ 'x-frame-options': 'SAMEORIGIN' }, 'http://sextant.example:8080/zentao/')).toBe('allowed');
  });

  it('lets frame-ancestors decide over X-Frame-Options, matching our origin', () => {
    const csp = (sources: string) => ({ 'content-security-policy': `default-src 'self'; frame-ancestors ${sources}` });
    expect(verdict(csp("'none'"))).toBe('frame-ancestors');
    expect(verdict(csp("'self'"))).toBe('frame-ancestors');
    expect(verdict(csp('https://other.example'))).toBe('frame-ancestors');
    expect(verdict(csp('https://sextant.example'))).toBe('frame-ancestors');
    expect(verdict(csp('https://sextant.example:8080'))).toBe('allowed');
    expect(verdict(csp('*.example:*'))).toBe('allowed');
    expect(verdict(csp('*'))).toBe('allowed');
    expect(verdict({ ...csp('https://sextant.example:8080'), 'x-frame-options': 'DENY' })).toBe('allowed');
  });
});
