export function loose(value: any) { return value; }
