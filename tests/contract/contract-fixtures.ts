import { randomUUID } from 'node:crypto';
import { AppError } from '../../core/errors.ts';
import type { ApiKey } from '../../core/domain/api-key.ts';
import { newOrganization, type Organization } from '../../core/domain/organization.ts';
import type { Message } from '../../core/domain/message.ts';
import type { User } from '../../core/domain/user.ts';
import type { WalletChange } from '../../core/domain/wallet.ts';
import type { Repositories } from '../../core/ports/storage.ts';

/** A fixed instant the contract suites build their times from (millisecond precision survives every store). */
export const T0 = new Date('2026-03-02T08:00:00.000Z');

export function at(secondsAfterT0: number): Date {
  return new Date(T0.getTime() + secondsAfterT0 * 1000);
}

export function uniqueId(label = 'id'): string {
  return `${label}-${randomUUID()}`;
}

/** A SENT SMS of `organizationId` created at T0 (3 pesewas, one segment, provider p1). */
export function aMessage(organizationId: string, overrides: Partial<Message> = {}): Message {
  const id = uniqueId('msg');
  return {
    id, organizationId, internalMessageId: id, channel: 'SMS', recipient: '+233241234567', country: 'GH', subject: null, body: 'hello', templateId: null, category: 'TRANSACTIONAL', scheduledAt: null,
    status: 'SENT', errorCode: null, errorMessage: null, cost: 3, price: 3, segments: 1, encoding: 'GSM-7', isSandbox: false, apiKeyId: null, userId: null,
    senderId: null, provider: 'p1', providerMessageId: null, attempts: 1, leaseUntil: null, createdAt: at(0), updatedAt: at(0), sentAt: null, deliveredAt: null,
    failedAt: null, ...overrides,
  };
}

/** Awaits a promise that must fail with an AppError and returns it. */
export async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the call to fail with an AppError');
}

export function aUser(overrides: Partial<User> = {}): User {
  const id = uniqueId('user');
  return {
    id, email: `${id}@example.com`, passwordHash: 'hash$one', firstName: 'Ama', lastName: 'Mensah',
    platformRole: null, createdAt: T0, ...overrides,
  };
}

export function anOrganization(overrides: Partial<Organization> = {}): Organization {
  return { ...newOrganization(uniqueId('org'), 'Kente Ltd', T0), ...overrides };
}

export function anApiKey(organizationId: string, createdByUserId: string, overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: uniqueId('key'), organizationId, name: 'Backend', prefix: 'nk_test_abcd', keyHash: uniqueId('hash'),
    isSandbox: true, scopes: ['messages:send', 'messages:read'], expiresAt: null, revokedAt: null, lastUsedAt: null,
    lastUsedIp: null, allowedCidrs: [], createdByUserId, createdAt: T0, ...overrides,
  };
}

export async function seedUser(repos: Repositories, overrides: Partial<User> = {}): Promise<User> {
  const user = aUser(overrides);
  await repos.users.insert(user);
  return user;
}

export async function seedOrganization(repos: Repositories, overrides: Partial<Organization> = {}): Promise<Organization> {
  const organization = anOrganization(overrides);
  await repos.organizations.insert(organization);
  return organization;
}

/** An organization with a wallet holding `balance` pesewas (credited by one TOP_UP entry when positive). */
export async function seedWallet(repos: Repositories, balance = 0): Promise<string> {
  const { id } = await seedOrganization(repos);
  await repos.wallets.create(id, T0);
  if (balance > 0) await repos.wallets.update(id, () => topUp(balance, uniqueId('seed')), T0);
  return id;
}

export function topUp(amount: number, reference: string = uniqueId('pay')): WalletChange {
  return { amount, kind: 'TOP_UP', reference, description: 'Top-up' };
}

export function debit(amount: number, reference: string = uniqueId('msg')): WalletChange {
  return { amount: -amount, kind: 'DEBIT', reference, description: 'SMS' };
}
