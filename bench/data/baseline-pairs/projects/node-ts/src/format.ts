import { mean } from './sum';

export function report(name: string, values: number[]): string {
  return `${name}: mean ${mean(values).toFixed(2)} over ${values.length} values`;
}
