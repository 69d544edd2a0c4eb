/**
 * An opaque page cursor for lists ordered by (time, id) descending: the last item's time and id as
 * base64url JSON. Clients pass it back unchanged; anything else decodes to null (a 400 for the caller).
 */
export function encodeKeysetCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString('base64url');
}

export function decodeKeysetCursor(cursor: string): { at: Date; id: string } | null {
  try {
    const [time, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const at = new Date(String(time));
    return typeof time === 'string' && typeof id === 'string' && !Number.isNaN(at.getTime()) ? { at, id } : null;
  } catch {
    return null;
  }
}
