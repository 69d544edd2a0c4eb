import type { Migration } from './migration.ts';

/**
 * Inbound messages and conversations (docs/conversations.md): receiving numbers assigned to
 * organizations, one conversation per (organization, channel, contact address), the inbound messages
 * (unique per vendor message id, so a vendor's retry stores once) and organizations' keywords.
 */
export const inboundConversations: Migration = {
  id: '0035-inbound-conversations',
  statements: [
    `create table inbound_numbers (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      channel text not null check (channel in ('SMS','WHATSAPP')),
      address text not null,
      created_at timestamptz not null
    )`,
    `create unique index inbound_numbers_channel_address on inbound_numbers (channel, address)`,
    `create table conversations (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      contact_id text not null,
      channel text not null check (channel in ('SMS','WHATSAPP')),
      address text not null,
      last_inbound_to text not null,
      last_inbound_at timestamptz not null,
      last_message_at timestamptz not null,
      last_message_preview text not null,
      unread_count integer not null default 0,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`,
    `create unique index conversations_org_channel_address on conversations (organization_id, channel, address)`,
    `create index conversations_org_last on conversations (organization_id, last_message_at desc, id desc)`,
    `create table inbound_messages (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      conversation_id text not null references conversations (id) on delete cascade,
      contact_id text not null,
      channel text not null,
      vendor text not null,
      provider text not null,
      provider_message_id text not null,
      from_address text not null,
      to_address text not null,
      body text not null,
      keyword text null,
      received_at timestamptz not null,
      created_at timestamptz not null
    )`,
    `create unique index inbound_messages_vendor_ref on inbound_messages (vendor, provider_message_id)`,
    `create index inbound_messages_conversation on inbound_messages (conversation_id, received_at desc, id desc)`,
    `create table inbound_keywords (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      keyword text not null,
      action text not null check (action in ('OPT_OUT','OPT_IN','AUTO_REPLY')),
      reply_text text null,
      created_at timestamptz not null
    )`,
    `create unique index inbound_keywords_org_keyword on inbound_keywords (organization_id, keyword)`,
  ],
};
