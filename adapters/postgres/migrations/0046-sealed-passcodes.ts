import type { Migration } from './migration.ts';

/**
 * Passcodes never stored in clear (docs/verify.md, docs/adr/0035-sealed-passcode-messages.md):
 * - `messages.sealed_content`: the encrypted text of a message whose stored body is masked (a passcode),
 *   read only by delivery and cleared once the message is sent or failed;
 * - `verifications.sandbox_code`: the latest code of a sandbox verification (null for live ones), which
 *   a test integration reads from the verification (docs/sandbox.md);
 * - an index on a PENDING verification's latest message, so a failed passcode moves its verification on
 *   at once (next channel, or FAILED).
 */
export const sealedPasscodes: Migration = {
  id: '0046-sealed-passcodes',
  statements: [
    'alter table messages add column sealed_content text null',
    'alter table verifications add column sandbox_code text null',
    `create index verifications_pending_last_message on verifications (organization_id, (sends -> -1 ->> 'messageId')) where status = 'PENDING'`,
  ],
};
