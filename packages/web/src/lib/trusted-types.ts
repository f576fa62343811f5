/**
 * The page's one Trusted Types policy (issue 32, finding 8; the server's Content-Security-Policy
 * requires Trusted Types and allows only this `default` policy). A string written into an HTML
 * sink passes only when it holds no markup: Ant Design fills its `<style>` elements with
 * innerHTML and ECharts empties its container with it, and text without `<` cannot create an
 * element. No string ever becomes a script or a script URL (zod, too, parses without `Function`).
 * Imported first by main.tsx.
 */
import { parseWithoutEval } from '@sextant/api';

type TrustedTypesFactory = {
  createPolicy(name: string, rules: { createHTML: (input: string) => string }): unknown;
};

export function isMarkupFree(html: string): boolean {
  return !html.includes('<');
}

const factory = (globalThis as { trustedTypes?: TrustedTypesFactory }).trustedTypes;
factory?.createPolicy('default', {
  createHTML: (input) => {
    if (isMarkupFree(input)) return input;
    throw new TypeError('Markup written as a string is refused by the Trusted Types policy.');
  },
});

parseWithoutEval();
