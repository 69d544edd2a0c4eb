import type { Migration } from './migration.ts';

/**
 * Push content and dead push tokens (issue 29, docs/messaging-rules.md "Push content" and
 * docs/contacts.md "Dead push tokens"): a PUSH message keeps its image URL, deep link and data object
 * (jsonb, null on other channels); a contact records when and why its push token was removed after a
 * vendor said the device is gone (FCM UNREGISTERED, APNs 410, Expo DeviceNotRegistered).
 */
export const pushContentDeadTokens: Migration = {
  id: '0048-push-content-dead-tokens',
  statements: [
    'alter table messages add column push jsonb',
    'alter table contacts add column push_token_removed_at timestamptz, add column push_token_removed_reason text',
    'create index contacts_push_token on contacts (organization_id, fcm_token) where fcm_token is not null',
  ],
};
