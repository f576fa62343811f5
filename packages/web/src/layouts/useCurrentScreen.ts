import type { Screen } from '@sextant/api';
import { useMatches } from 'react-router';

export function useCurrentScreen(): Screen | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const handle = matches[i]?.handle as { screen?: Screen } | undefined;
    if (handle?.screen) return handle.screen;
  }
  return undefined;
}
