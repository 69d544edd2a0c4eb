import { randomUUID } from 'node:crypto';
import type { ApiClient } from './api-client.ts';

export interface TestTenant {
  email: string;
  password: string;
  userId: string;
  token: string;
  organizationId: string;
  auth: { token: string; organizationId: string };
}

export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.com`;
}

/** Registers a new user with a new organization through the API. */
export async function registerTenant(api: ApiClient, label = 'owner'): Promise<TestTenant> {
  const email = uniqueEmail(label);
  const password = 'correct-horse-battery';
  const response = await api.post('/auth/register', { email, password, firstName: 'Ama', lastName: 'Mensah', organizationName: `Org ${label}` });
  if (response.status !== 201) throw new Error(`register failed: ${response.status} ${response.text}`);
  const data = response.body.data;
  const organizationId = data.organizations[0].id as string;
  return { email, password, userId: data.user.id, token: data.token, organizationId, auth: { token: data.token, organizationId } };
}

/** Registers a user without an organization. */
export async function registerUser(api: ApiClient, label = 'member'): Promise<{ email: string; password: string; userId: string; token: string }> {
  const email = uniqueEmail(label);
  const password = 'correct-horse-battery';
  const response = await api.post('/auth/register', { email, password, firstName: 'Kofi', lastName: 'Boateng' });
  if (response.status !== 201) throw new Error(`register failed: ${response.status} ${response.text}`);
  return { email, password, userId: response.body.data.user.id, token: response.body.data.token };
}
