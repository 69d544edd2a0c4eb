/**
 * Money is an integer number of pesewas (1 GHS = 100 pesewas) everywhere inside the service.
 * GHS decimals exist only at the API edge, converted with these functions.
 */
export type Pesewas = number;

export const PESEWAS_PER_GHS = 100;

/** Converts a GHS amount with at most two decimals to pesewas; returns null for anything else. */
export function ghsToPesewas(amount: number): Pesewas | null {
  if (!Number.isFinite(amount)) return null;
  const pesewas = Math.round(amount * PESEWAS_PER_GHS);
  if (Math.abs(pesewas - amount * PESEWAS_PER_GHS) > 1e-6) return null;
  if (!Number.isSafeInteger(pesewas)) return null;
  return pesewas;
}

export function pesewasToGhs(pesewas: Pesewas): number {
  return pesewas / PESEWAS_PER_GHS;
}

export function assertPesewas(value: number): Pesewas {
  if (!Number.isSafeInteger(value)) throw new RangeError(`not an integer amount of pesewas: ${value}`);
  return value;
}
