import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { api } from './api.ts';
import { Link, match, navigate, useLocation } from './router.tsx';
import { useSession } from './session.tsx';
import { Loading, Notice, toApiError } from './ui.tsx';
import { ForgotPasswordPage, ResetPasswordPage, SignInPage, SignUpPage } from './pages/auth.tsx';
import { OnboardingPage } from './pages/onboarding.tsx';
import { SendPage } from './pages/send.tsx';
import { LogDetailPage, LogsPage } from './pages/logs.tsx';
import { AuditLogPage } from './pages/audit-log.tsx';
import { ScheduledPage } from './pages/scheduled.tsx';
import { TemplatesPage } from './pages/templates.tsx';
import { EventsPage } from './pages/events.tsx';
import { FailedWorkflowRunsPage } from './pages/failed-workflow-runs.tsx';
import { ContactsPage } from './pages/contacts.tsx';
import { SegmentsPage } from './pages/segments.tsx';
import { CampaignsPage } from './pages/campaigns.tsx';
import { ApiKeysPage } from './pages/api-keys.tsx';
import { SendingPage } from './pages/vendor-accounts.tsx';
import { VerifyPage } from './pages/verify.tsx';
import { ConversationPage, ConversationsPage } from './pages/conversations.tsx';
import { InboxPage } from './pages/inbox.tsx';
import { WebhooksPage } from './pages/webhooks.tsx';
import { CompliancePage } from './pages/compliance.tsx';
import { TeamPage } from './pages/team.tsx';
import { SsoCallbackPage, SsoSignInPage } from './pages/sso-sign-in.tsx';
import { SsoSettingsPage } from './pages/sso-settings.tsx';
import { LinksPage } from './pages/links.tsx';
import { AdminApprovalsPage, AdminRevenuePage, AdminTenantsPage } from './pages/admin.tsx';
import { AdminProvidersPage } from './pages/admin-providers.tsx';
import { AdminProviderMetricsPage } from './pages/admin-provider-metrics.tsx';
import { AdminProviderHealthPage } from './pages/admin-provider-health.tsx';
import { AdminRoutingPage } from './pages/admin-routing.tsx';
import { ConsentPage } from './pages/consent.tsx';
import { ContactDetailPage } from './pages/contact-detail.tsx';
import { AdminSendWindowsPage } from './pages/admin-send-windows.tsx';
import { SecurityPage } from './pages/security.tsx';

// The two chart pages load recharts (most of the bundle) on demand.
const OverviewPage = lazy(() => import('./pages/overview.tsx').then((m) => ({ default: m.OverviewPage })));
const BillingPage = lazy(() => import('./pages/billing.tsx').then((m) => ({ default: m.BillingPage })));
const PaymentReturnPage = lazy(() => import('./pages/billing.tsx').then((m) => ({ default: m.PaymentReturnPage })));

/** `ownersAndAdmins`: shown only to TENANT_OWNER and TENANT_ADMIN (and impersonating staff), who alone may open it. */
interface NavItem { to: string; label: string; admin?: boolean; ownersAndAdmins?: boolean }
const TENANT_NAV: NavItem[] = [
  { to: '/app', label: 'Overview' }, { to: '/app/send', label: 'Send a message' }, { to: '/app/logs', label: 'Delivery logs' }, { to: '/app/conversations', label: 'Conversations' },
  { to: '/app/scheduled', label: 'Scheduled' },
  { to: '/app/templates', label: 'Templates' }, { to: '/app/events', label: 'Events' }, { to: '/app/contacts', label: 'Contacts' },
  { to: '/app/segments', label: 'Segments' }, { to: '/app/campaigns', label: 'Campaigns' }, { to: '/app/api-keys', label: 'API keys' },
  { to: '/app/verify', label: 'Verify' }, { to: '/app/inbox', label: 'In-app inbox' }, { to: '/app/sending', label: 'Sender IDs & vendors' }, { to: '/app/links', label: 'Tracked links' }, { to: '/app/webhooks', label: 'Webhooks' }, { to: '/app/billing', label: 'Billing' }, { to: '/app/compliance', label: 'Compliance' },
  { to: '/app/consent', label: 'Consent' },
  { to: '/app/team', label: 'Team' }, { to: '/app/sso', label: 'Single sign-on', ownersAndAdmins: true }, { to: '/app/audit-log', label: 'Audit log', ownersAndAdmins: true }, { to: '/app/onboarding', label: 'Organization' },
];
const ADMIN_NAV: NavItem[] = [
  { to: '/app/admin/tenants', label: 'Tenants', admin: true }, { to: '/app/admin/revenue', label: 'Revenue', admin: true },
  { to: '/app/admin/approvals', label: 'Approvals', admin: true }, { to: '/app/admin/providers', label: 'Providers', admin: true },
  { to: '/app/admin/provider-metrics', label: 'Provider metrics', admin: true },
  { to: '/app/admin/routing', label: 'Network routing', admin: true },
  { to: '/app/admin/send-windows', label: 'Send windows', admin: true },
];

const PAGES: Array<[string, (p: Record<string, string>) => ReactNode]> = [
  ['/app', () => <OverviewPage />], ['/app/onboarding', () => <OnboardingPage />], ['/app/send', () => <SendPage />],
  ['/app/logs', () => <LogsPage />], ['/app/logs/:id', (p) => <LogDetailPage id={p['id']!} />], ['/app/scheduled', () => <ScheduledPage />],
  ['/app/templates', () => <TemplatesPage />], ['/app/events', () => <EventsPage />], ['/app/workflow-runs/failed', () => <FailedWorkflowRunsPage />], ['/app/contacts', () => <ContactsPage />],
  ['/app/segments', () => <SegmentsPage />], ['/app/campaigns', () => <CampaignsPage />], ['/app/api-keys', () => <ApiKeysPage />], ['/app/sending', () => <SendingPage />], ['/app/verify', () => <VerifyPage />],
  ['/app/conversations', () => <ConversationsPage />], ['/app/conversations/:id', (p) => <ConversationPage id={p['id']!} />],
  ['/app/segments', () => <SegmentsPage />], ['/app/campaigns', () => <CampaignsPage />], ['/app/api-keys', () => <ApiKeysPage />], ['/app/sending', () => <SendingPage />], ['/app/verify', () => <VerifyPage />], ['/app/inbox', () => <InboxPage />],
  ['/app/webhooks', () => <WebhooksPage />], ['/app/billing', () => <BillingPage />], ['/app/billing/return', () => <PaymentReturnPage />],
  ['/app/compliance', () => <CompliancePage />], ['/app/team', () => <TeamPage />], ['/app/sso', () => <SsoSettingsPage />], ['/app/audit-log', () => <AuditLogPage />], ['/app/links', () => <LinksPage />],
  ['/app/consent', () => <ConsentPage />], ['/app/contacts/:id', (p) => <ContactDetailPage id={p['id']!} />], ['/app/admin/send-windows', () => <AdminSendWindowsPage />],
  ['/app/admin/tenants', () => <AdminTenantsPage />], ['/app/admin/revenue', () => <AdminRevenuePage />],
  ['/app/admin/approvals', () => <AdminApprovalsPage />], ['/app/admin/providers', () => <AdminProvidersPage />],
  ['/app/security', () => <SecurityPage />],
  ['/app/admin/provider-metrics', () => <AdminProviderMetricsPage />], ['/app/admin/routing', () => <AdminRoutingPage />], ['/app/admin/providers/:id', (p) => <AdminProviderHealthPage id={p['id']!} />],
];
const PUBLIC: Record<string, () => ReactNode> = {
  '/sign-in': () => <SignInPage />, '/sign-up': () => <SignUpPage />, '/sso': () => <SsoSignInPage />, '/sso/callback': () => <SsoCallbackPage />,
  '/forgot-password': () => <ForgotPasswordPage />, '/reset-password': () => <ResetPasswordPage />,
};

export function App(): ReactNode {
  const session = useSession();
  const { path } = useLocation();
  const publicPage = PUBLIC[path];

  useEffect(() => {
    // The payment gateway returns the payer to PUBLIC_URL/?reference=...: that is the payment return page.
    if (path === '/' && (location.search.includes('reference=') || location.search.includes('trxref='))) { navigate(`/app/billing/return${location.search}`, { replace: true }); return; }
    if (!session.ready) return;
    if (!session.token && !publicPage) navigate(`/sign-in${path.startsWith('/app') && path !== '/app' ? `?next=${encodeURIComponent(path + location.search)}` : ''}`, { replace: true });
    else if (session.token && (path === '/' || path === '/sign-in' || path === '/sign-up')) navigate('/app', { replace: true });
  }, [session.ready, session.token, path, publicPage]);

  // Move focus to the new page's heading so screen-reader and keyboard users land on the content.
  useEffect(() => { document.getElementById('page-title')?.focus({ preventScroll: true }); }, [path]);

  if (!session.ready) return <main className="centered"><Loading /></main>;
  if (publicPage) return <main className="centered auth">{publicPage()}</main>;
  if (!session.token) return <main className="centered"><Loading /></main>;
  return <Shell path={path} />;
}

function Shell({ path }: { path: string }): ReactNode {
  const session = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [path]);
  let content: ReactNode = null;
  for (const [pattern, render] of PAGES) {
    const params = match(pattern, path);
    if (params) { content = render(params); break; }
  }
  if (!content) content = <section className="page"><h1 id="page-title" tabIndex={-1}>Page not found</h1><p>No page lives at <code>{path}</code>. <Link to="/app">Back to the overview</Link>.</p></section>;
  const needsOrg = !session.organizationId && !path.startsWith('/app/admin') && path !== '/app/security';
  // A platform administrator without an organization starts on the platform pages.
  useEffect(() => { if (needsOrg && session.isAdmin && path === '/app') navigate('/app/admin/tenants', { replace: true }); }, [needsOrg, session.isAdmin, path]);
  return (
    <div className={`shell${session.impersonating ? ' impersonating' : ''}`}>
      <a className="skip-link" href="#main">Skip to content</a>
      {session.impersonating && <ImpersonationBanner />}
      <header className="topbar">
        <button type="button" className="menu-toggle" aria-expanded={menuOpen} aria-controls="sidenav" onClick={() => setMenuOpen((o) => !o)}>Menu</button>
        <Link to="/app" className="brand">Nkra</Link>
        <OrganizationSwitcher />
        <span className="who">{session.profile?.firstName} {session.profile?.lastName}{session.isAdmin ? ' (platform admin)' : ''}</span>
        <Link to="/app/security" className="security-link">Security</Link>
        <button type="button" className="secondary" onClick={() => { session.signOut(); navigate('/sign-in'); }}>Sign out</button>
      </header>
      <div className="body">
        <nav id="sidenav" className={menuOpen ? 'open' : ''} aria-label="Main">
          <ul>
            {(session.organizationId ? TENANT_NAV : []).filter((item) => !item.ownersAndAdmins || session.impersonating || session.role === 'TENANT_OWNER' || session.role === 'TENANT_ADMIN').map((item) => <li key={item.to}><Link to={item.to} aria-current={path === item.to ? 'page' : undefined}>{item.label}</Link></li>)}
          </ul>
          {session.isAdmin && !session.impersonating && (
            <>
              <h2 className="nav-heading">Platform</h2>
              <ul>{ADMIN_NAV.map((item) => <li key={item.to}><Link to={item.to} aria-current={path === item.to ? 'page' : undefined}>{item.label}</Link></li>)}</ul>
            </>
          )}
        </nav>
        <main id="main">
          {needsOrg ? <Notice kind="warning">You do not belong to an organization yet. Ask an owner to invite you{session.isAdmin ? ', or use the platform pages' : ''}.</Notice> : <Suspense fallback={<Loading />}>{content}</Suspense>}
        </main>
      </div>
    </div>
  );
}

function OrganizationSwitcher(): ReactNode {
  const session = useSession();
  const orgs = session.profile?.organizations ?? [];
  if (orgs.length <= 1) return <span className="org-name">{session.organization?.name ?? orgs[0]?.name ?? ''}</span>;
  return (
    <label className="org-switch">
      <span className="sr-only">Organization</span>
      <select value={session.organizationId ?? ''} onChange={(e) => void session.switchOrganization(e.target.value)}>
        {orgs.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
      </select>
    </label>
  );
}

function ImpersonationBanner(): ReactNode {
  const session = useSession();
  const [error, setError] = useState<string | null>(null);
  const exit = async (): Promise<void> => {
    try {
      const result = await api.post<Record<string, unknown>>('/admin/exit-impersonation');
      const token = typeof result['token'] === 'string' ? result['token'] : null;
      await session.exitImpersonation(token);
      navigate('/app/admin/tenants');
    } catch (e) {
      const err = toApiError(e);
      // NOT_IMPERSONATING or an expired impersonation token: fall back to the administrator token kept in this browser.
      if (err.code === 'NOT_IMPERSONATING' || err.status === 401) { await session.exitImpersonation(null); navigate('/app/admin/tenants'); } else setError(err.message);
    }
  };
  return (
    <div className="impersonation-banner" role="alert" data-testid="impersonation-banner">
      <strong>Impersonating {session.impersonatedName ?? session.organization?.name ?? 'a tenant'}</strong>
      <span>Everything you do here happens as this organization.</span>
      <button type="button" onClick={() => void exit()}>Exit impersonation</button>
      {error && <span>{error}</span>}
    </div>
  );
}
