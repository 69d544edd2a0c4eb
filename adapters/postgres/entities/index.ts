import { ApiKeyEntity } from './api-key-entity.ts';
import { MessageEntity } from './message-entity.ts';
import { SuppressionEntity } from './suppression-entity.ts';
import { ApprovalRequestEntity, TemplateEntity } from './template-entity.ts';
import { MembershipEntity, OrganizationEntity } from './organization-entity.ts';
import { PasswordResetEntity } from './password-reset-entity.ts';
import { UserEntity } from './user-entity.ts';
import { LedgerEntryEntity, WalletEntity } from './wallet-entity.ts';

/** Every entity schema the ORM is initialised with. */
export const ALL_ENTITIES = [UserEntity, OrganizationEntity, MembershipEntity, WalletEntity, LedgerEntryEntity, ApiKeyEntity, PasswordResetEntity,
  MessageEntity, TemplateEntity, ApprovalRequestEntity, SuppressionEntity];
