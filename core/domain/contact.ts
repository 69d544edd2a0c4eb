/** A person a tenant messages: any of phone (E.164), email (lowercased) and push token. */
export interface Contact {
  id: string;
  organizationId: string;
  firstName: string | null;
  lastName: string | null;
  /** E.164, or null. */
  phone: string | null;
  /** Lowercased, or null. */
  email: string | null;
  /** ISO 3166-1 alpha-2 used to read the phone number; default GH. */
  countryCode: string;
  tags: string[];
  fcmToken: string | null;
  /** Set when the contact opted out (they are also on the suppression list). */
  optedOutAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export function contactView(c: Contact) {
  return {
    id: c.id, firstName: c.firstName, lastName: c.lastName, phone: c.phone, email: c.email, countryCode: c.countryCode,
    tags: c.tags, fcmToken: c.fcmToken, optedOut: c.optedOutAt !== null, optedOutAt: c.optedOutAt?.toISOString() ?? null,
    createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString(),
  };
}
