import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { api, setCredentials, setUnauthorizedHandler } from './api.ts';

export interface Membership { id: string; name: string; role: string }
export interface Profile {
  id: string; email: string; firstName: string; lastName: string;
  platformRole: string | null; impersonatorId: string | null; organizations: Membership[];
}
export interface Organization {
  id: string; name: string; timezone?: string; onboardingComplete?: boolean; complianceAcknowledged?: boolean;
  wallet?: { balance?: number; currency?: string }; [key: string]: unknown;
}

interface Stored { token: string | null; organizationId: string | null; adminToken: string | null; adminOrganizationId: string | null; impersonatedName?: string | null }
const KEY = 'nkra.session';
const EMPTY: Stored = { token: null, organizationId: null, adminToken: null, adminOrganizationId: null };

function load(): Stored {
  try { return { ...EMPTY, ...(JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Stored>) }; } catch { return EMPTY; }
}

export interface Session {
  ready: boolean;
  token: string | null;
  profile: Profile | null;
  organization: Organization | null;
  organizationId: string | null;
  role: string | null;
  isAdmin: boolean;
  impersonating: boolean;
  timezone: string;
  signIn(token: string, organizationId?: string | null): Promise<void>;
  signOut(): void;
  switchOrganization(id: string): Promise<void>;
  refresh(): Promise<void>;
  /** The organization being impersonated (named at once, from the impersonation answer). */
  impersonatedName: string | null;
  startImpersonation(token: string, organizationId: string, organizationName: string | null): Promise<void>;
  exitImpersonation(token: string | null): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}

export function SessionProvider({ children }: { children: ReactNode }): ReactNode {
  const [stored, setStored] = useState<Stored>(load);
  const [profile, setProfile] = useState<Profile | null>(null);
  const [organization, setOrganization] = useState<Organization | null>(null);
  const [ready, setReady] = useState(false);

  const save = useCallback((next: Stored) => {
    localStorage.setItem(KEY, JSON.stringify(next));
    setCredentials({ token: next.token, organizationId: next.organizationId });
    setStored(next);
  }, []);

  const loadFor = useCallback(async (s: Stored): Promise<void> => {
    setCredentials({ token: s.token, organizationId: s.organizationId });
    if (!s.token) { setProfile(null); setOrganization(null); setReady(true); return; }
    try {
      const me = await api.get<Profile>('/auth/me');
      setProfile(me);
      let orgId = s.organizationId;
      // An impersonation token is scoped to an organization the administrator is not a member of: keep it.
      const impersonating = Boolean(me.impersonatorId) || Boolean(s.adminToken);
      if (!impersonating && (!orgId || !me.organizations.some((o) => o.id === orgId))) orgId = me.organizations[0]?.id ?? null;
      if (orgId !== s.organizationId) save({ ...s, organizationId: orgId });
      setCredentials({ token: s.token, organizationId: orgId });
      setOrganization(orgId ? await api.get<Organization>('/organizations/current').catch(() => null) : null);
    } catch {
      save(EMPTY);
      setProfile(null);
      setOrganization(null);
    } finally {
      setReady(true);
    }
  }, [save]);

  // An expired or revoked session (401 on any call): sign out, and the app sends the person to sign-in.
  // Leaving an impersonation handles its own 401 (the administrator's token is restored instead).
  const storedRef = useRef(stored);
  storedRef.current = stored;
  useEffect(() => {
    setUnauthorizedHandler((path) => {
      if (path === '/admin/exit-impersonation' || storedRef.current.adminToken) return;
      save(EMPTY); setProfile(null); setOrganization(null);
    });
    void loadFor(stored);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const value = useMemo<Session>(() => {
    const membership = profile?.organizations.find((o) => o.id === stored.organizationId) ?? null;
    return {
      ready, token: stored.token, profile, organization, organizationId: stored.organizationId,
      role: membership?.role ?? null,
      isAdmin: profile?.platformRole === 'PLATFORM_SUPER_ADMIN',
      impersonating: Boolean(profile?.impersonatorId) || Boolean(stored.adminToken),
      timezone: typeof organization?.timezone === 'string' && organization.timezone ? organization.timezone : 'Africa/Accra',
      signIn: async (token, organizationId = null) => { const next = { ...EMPTY, token, organizationId }; save(next); await loadFor(next); },
      signOut: () => { save(EMPTY); setProfile(null); setOrganization(null); },
      switchOrganization: async (id) => { const next = { ...stored, organizationId: id }; save(next); await loadFor(next); },
      refresh: () => loadFor(stored),
      impersonatedName: stored.impersonatedName ?? null,
      startImpersonation: async (token, organizationId, organizationName) => {
        const next = { token, organizationId, adminToken: stored.token, adminOrganizationId: stored.organizationId, impersonatedName: organizationName };
        save(next);
        await loadFor(next);
      },
      exitImpersonation: async (restored) => {
        const next = { ...EMPTY, token: restored ?? stored.adminToken, organizationId: stored.adminOrganizationId };
        save(next);
        await loadFor(next);
      },
    };
  }, [ready, stored, profile, organization, save, loadFor]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
