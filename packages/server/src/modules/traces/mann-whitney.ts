/** The standard normal's upper tail, P(Z > z) (Abramowitz & Stegun 7.1.26, error < 1.5e-7). */
export function normalUpperTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  const upper = 0.5 * (1 - erf);
  return z >= 0 ? upper : 1 - upper;
}

/**
 * Mann-Whitney U: the one-sided p-value that `candidate` values tend to be larger than `base`
 * values, by the normal approximation with tie correction and continuity correction. Null when
 * either sample is empty. Ranks by sorting both samples together: O((n+m) log(n+m)).
 */
export function mannWhitneyGreater(base: number[], candidate: number[]): { u: number; p: number } | null {
  const n1 = candidate.length;
  const n2 = base.length;
  if (n1 === 0 || n2 === 0) return null;
  const all = [...candidate.map((v) => ({ v, c: true })), ...base.map((v) => ({ v, c: false }))].sort(
    (a, b) => a.v - b.v,
  );
  let rankSumCandidate = 0;
  let tieTerm = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j]?.v === all[i]?.v) j += 1;
    const rank = (i + 1 + j) / 2;
    const ties = j - i;
    tieTerm += ties ** 3 - ties;
    for (let k = i; k < j; k += 1) if (all[k]?.c) rankSumCandidate += rank;
    i = j;
  }
  const u = rankSumCandidate - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const mean = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  if (variance <= 0) return { u, p: 1 };
  const z = (u - mean - 0.5) / Math.sqrt(variance);
  return { u, p: normalUpperTail(z) };
}

/** One-sided two-proportion z-test: p-value that the candidate's rate is higher. */
export function proportionGreater(
  baseErrors: number,
  baseCalls: number,
  candErrors: number,
  candCalls: number,
): number | null {
  if (baseCalls === 0 || candCalls === 0) return null;
  const pooled = (baseErrors + candErrors) / (baseCalls + candCalls);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / baseCalls + 1 / candCalls));
  if (se === 0) return candErrors / candCalls > baseErrors / baseCalls ? 0 : 1;
  return normalUpperTail((candErrors / candCalls - baseErrors / baseCalls) / se);
}
