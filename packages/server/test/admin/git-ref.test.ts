import { spawnSync } from 'node:child_process';
import { isSafeGitRef } from '@sextant/api';
import { describe, expect, it } from 'vitest';

const CANDIDATES = [
  'main',
  'release/1.4',
  'v1.3.0',
  'feature/login-page_2',
  'a1b2c3d4e5f6',
  'refs/heads/main',
  '-b',
  '--output=/tmp/x',
  'main..dev',
  'a b',
  'HEAD~1',
  'x^{tree}',
  'a:b',
  'what?',
  'star*',
  'br[ack',
  'back\\slash',
  'refs/heads/',
  'trailing.',
  'x.lock',
  '.hidden',
  'a/.b',
  'a//b',
  'at@{1}',
  '@',
  'tab\there',
  '',
];

function gitAccepts(ref: string): boolean {
  return spawnSync('git', ['check-ref-format', '--allow-onelevel', ref]).status === 0;
}

describe('isSafeGitRef', () => {
  it('accepts only what git check-ref-format accepts, and never a leading dash', () => {
    for (const ref of CANDIDATES) {
      if (isSafeGitRef(ref)) expect([ref, gitAccepts(ref)]).toEqual([ref, true]);
      if (ref.startsWith('-')) expect([ref, isSafeGitRef(ref)]).toEqual([ref, false]);
    }
  });

  it('accepts the refs people name versions with', () => {
    const usual = CANDIDATES.slice(0, 6);
    expect(usual.filter((ref) => !isSafeGitRef(ref))).toEqual([]);
    expect(usual.filter((ref) => !gitAccepts(ref))).toEqual([]);
  });
});
