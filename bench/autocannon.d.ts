// The part of autocannon's API search-reports.ts and risks.ts use (the package ships no types).
declare module 'autocannon' {
  type Options = {
    url: string;
    connections: number;
    duration: number;
    headers: Record<string, string>;
    requests: { setupRequest: (request: object) => object }[];
  };
  type Result = {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
  };
  export default function autocannon(options: Options): Promise<Result>;
}
