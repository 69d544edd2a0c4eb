/**
 * Where an organization's own vendor account may connect (docs/security.md, "Outbound connections").
 * A tenant-owned account talks to its vendor's own fixed hosts (below) or to the operator's
 * VENDOR_BASE_URLS entry for that vendor, nothing else: a URL a tenant wrote into credentials or
 * settings (an FCM service account's `token_uri`) naming any other host is refused when the account is
 * saved and again at every connection.
 */
export const VENDOR_HOSTS: Readonly<Record<string, readonly string[]>> = {
  'arkesel-sms': ['sms.arkesel.com'],
  'hubtel-sms': ['sms.hubtel.com'],
  'mnotify-sms': ['api.mnotify.com'],
  'termii-sms': ['api.ng.termii.com'],
  'africas-talking-sms': ['api.africastalking.com', 'api.sandbox.africastalking.com'],
  'africas-talking-voice': ['voice.africastalking.com', 'voice.sandbox.africastalking.com', 'api.africastalking.com', 'api.sandbox.africastalking.com'],
  'twilio-sms': ['api.twilio.com'],
  'twilio-voice': ['api.twilio.com'],
  'meta-whatsapp': ['graph.facebook.com'],
  'sendgrid-email': ['api.sendgrid.com', 'api.eu.sendgrid.com'],
  'fcm-push': ['fcm.googleapis.com', 'oauth2.googleapis.com', 'www.googleapis.com', 'accounts.google.com'],
  'apns-push': ['api.push.apple.com', 'api.sandbox.push.apple.com'],
  'expo-push': ['exp.host'],
};

/** A URL an organization wrote into its own account that the vendor adapter will connect to, with the field it came from. */
export interface TenantEndpoint {
  /** `credentials` or `settings`: the request field a refusal names. */
  field: 'credentials' | 'settings';
  /** Where inside that field, e.g. `serviceAccountJson.token_uri`. */
  path: string;
  url: string;
}

/**
 * The URLs inside an own account's credentials and settings that we connect to. Today only FCM's
 * service account names one (`token_uri`, where the signed JWT is exchanged for an access token); the
 * endpoint itself (`baseUrl`) is never a tenant's to set. Unreadable JSON yields nothing here (the
 * build check refuses it with its own message).
 */
export function tenantEndpoints(vendor: string, credentials: Readonly<Record<string, string>>): TenantEndpoint[] {
  if (vendor !== 'fcm-push' || !credentials['serviceAccountJson']) return [];
  let account: unknown;
  try { account = JSON.parse(credentials['serviceAccountJson']); } catch { return []; }
  if (account === null || typeof account !== 'object' || Array.isArray(account)) return [];
  const tokenUri = (account as Record<string, unknown>)['token_uri'];
  if (tokenUri === undefined || tokenUri === null) return [];
  return [{ field: 'credentials', path: 'serviceAccountJson.token_uri', url: typeof tokenUri === 'string' ? tokenUri : String(tokenUri) }];
}
