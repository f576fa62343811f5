import { useEffect, useSyncExternalStore } from 'react';

/**
 * A screen whose list it came from is known only from its data (a report's detail opened from the
 * functional-test list, specification point 2) names the menu entry to highlight here; the menu
 * prefers it to the route's fixed `navActiveLink` while that screen is shown.
 */
let highlighted: string | undefined;
const listeners = new Set<() => void>();

function set(next: string | undefined) {
  if (highlighted === next) return;
  highlighted = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The menu entry a screen asked to highlight, if any. */
export function useMenuHighlight(): string | undefined {
  return useSyncExternalStore(subscribe, () => highlighted);
}

/** Highlights the menu entry of this screen name while the calling screen is shown (undefined: the route's own). */
export function useHighlightMenu(screenName: string | undefined): void {
  useEffect(() => {
    set(screenName);
    return () => set(undefined);
  }, [screenName]);
}
