/** A UUIDv7 for the millisecond of `at` (tests and benches that write rows of the past): `seq` keeps ids of one millisecond apart. */
export function v7At(at: Date, seq: number): string {
  const ms = at.getTime().toString(16).padStart(12, '0');
  const rand = (seq % 0x1000).toString(16).padStart(3, '0');
  const tail = Math.floor(seq / 0x1000).toString(16).padStart(12, '0').slice(-12);
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7${rand}-8000-${tail}`;
}
