import { useEffect, useState, type ReactNode } from 'react';
import { api, ApiError } from '../api.ts';
import { navigate } from '../router.tsx';
import { useSession } from '../session.tsx';
import { CHANNELS, ErrorBanner, Field, Notice, Page, useForm } from '../ui.tsx';

const TIMEZONES = ['Africa/Accra', 'Africa/Lagos', 'Africa/Nairobi', 'Africa/Johannesburg', 'Africa/Abidjan', 'Africa/Cairo', 'Europe/London', 'UTC'];
const INDUSTRIES = ['', 'Fintech', 'Healthcare', 'Insurance', 'Logistics', 'E-commerce', 'Education', 'Government', 'Telecoms', 'Other'];

/** Organization onboarding and settings: the spec's organization fields plus the compliance acknowledgement. */
export function OnboardingPage(): ReactNode {
  const session = useSession();
  const org = session.organization ?? {} as Record<string, unknown>;
  const s = (k: string): string => (typeof org[k] === 'string' ? String(org[k]) : '');
  // What was typed survives leaving the page and coming back (the browser's Back button, a link followed to read the
  // rules): a draft per organization in sessionStorage until it is saved (issue 35).
  const draftKey = `nkra.onboarding-draft.${session.organizationId ?? ''}`;
  const draft = readDraft(draftKey);
  const form = useForm<OnboardingDraft>(draft ?? {
    name: s('name'), industry: s('industry'), businessPhone: s('businessPhone'), businessEmail: s('businessEmail'),
    timezone: s('timezone') || 'Africa/Accra', defaultLanguage: s('defaultLanguage') || 'en', website: s('website'),
    monthlyVolume: org['monthlyVolume'] == null ? '' : String(org['monthlyVolume']),
    preferredChannels: Array.isArray(org['preferredChannels']) ? (org['preferredChannels'] as string[]) : [],
    complianceAcknowledged: org['complianceAcknowledged'] === true,
  });
  const [saved, setSaved] = useState(false);
  const [pristine, setPristine] = useState(true);
  useEffect(() => {
    if (pristine) { setPristine(false); return; }
    setSaved(false);
    try { sessionStorage.setItem(draftKey, JSON.stringify(form.values)); } catch { /* storage full or off: nothing kept */ }
  }, [form.values]); // eslint-disable-line react-hooks/exhaustive-deps
  const onboarded = org['onboardingComplete'] === true;

  const onSubmit = form.submit(async (v) => {
    // Onboarding is finished by the acknowledgement: saving without it would say "Saved." and leave the setup open.
    const missing: Record<string, string[]> = {};
    if (!v.name.trim()) missing['name'] = ['Enter your organization name'];
    if (!onboarded && !v.complianceAcknowledged) missing['complianceAcknowledged'] = ['Acknowledge the messaging rules to finish onboarding'];
    if (Object.keys(missing).length > 0) throw new ApiError(0, 'VALIDATION_ERROR', 'Some fields need your attention', { fieldErrors: missing, formErrors: [] });
    const body: Record<string, unknown> = { name: v.name, timezone: v.timezone, defaultLanguage: v.defaultLanguage, preferredChannels: v.preferredChannels, complianceAcknowledged: v.complianceAcknowledged };
    for (const k of ['industry', 'businessPhone', 'businessEmail', 'website'] as const) if (v[k].trim()) body[k] = v[k].trim();
    if (v.monthlyVolume.trim()) body['monthlyVolume'] = Number(v.monthlyVolume);
    if (v.complianceAcknowledged) body['onboardingComplete'] = true;
    await api.patch('/organizations/current', body);
    try { sessionStorage.removeItem(draftKey); } catch { /* nothing kept */ }
    await session.refresh();
    setSaved(true);
    if (!onboarded && v.complianceAcknowledged) navigate('/app');
  });
  const text = (name: 'name' | 'businessPhone' | 'businessEmail' | 'website' | 'monthlyVolume' | 'defaultLanguage', label: string, type = 'text', hint?: string) => (
    <Field label={label} name={name} error={form.error} {...(hint ? { hint } : {})}>{(p) => <input {...p} type={type} value={form.values[name]} onChange={(e) => form.set(name, e.target.value)} />}</Field>
  );
  return (
    <Page title={onboarded ? 'Organization settings' : 'Set up your organization'}>
      {!onboarded && <Notice>Tell us about your organization and acknowledge the messaging rules to finish onboarding.</Notice>}
      <form className="card" onSubmit={onSubmit} noValidate>
        <ErrorBanner error={form.error} shownFields={['name', 'industry', 'businessPhone', 'businessEmail', 'timezone', 'defaultLanguage', 'website', 'monthlyVolume', 'preferredChannels', 'complianceAcknowledged']} />
        {text('name', 'Organization name')}
        <Field label="Industry" name="industry" error={form.error}>{(p) => <select {...p} value={form.values.industry} onChange={(e) => form.set('industry', e.target.value)}>{INDUSTRIES.map((i) => <option key={i} value={i}>{i || 'Choose…'}</option>)}</select>}</Field>
        <div className="row">{text('businessPhone', 'Business phone', 'tel', 'e.g. 030 123 4567 or +233 30 123 4567')}{text('businessEmail', 'Business email', 'email')}</div>
        <div className="row">
          <Field label="Timezone" name="timezone" error={form.error} hint="Times in the dashboard are shown in this timezone">{(p) => <select {...p} value={form.values.timezone} onChange={(e) => form.set('timezone', e.target.value)}>{[...new Set([form.values.timezone, ...TIMEZONES])].map((t) => <option key={t}>{t}</option>)}</select>}</Field>
          {text('defaultLanguage', 'Default language', 'text', 'e.g. en, fr, tw')}
        </div>
        <div className="row">{text('website', 'Website', 'url')}{text('monthlyVolume', 'Expected messages per month', 'number')}</div>
        <fieldset>
          <legend>Preferred channels</legend>
          {CHANNELS.map((c) => (
            <label key={c} className="inline"><input type="checkbox" checked={form.values.preferredChannels.includes(c)} onChange={(e) => form.set('preferredChannels', e.target.checked ? [...form.values.preferredChannels, c] : form.values.preferredChannels.filter((x) => x !== c))} /> {c}</label>
          ))}
          {form.error?.fieldErrors['preferredChannels'] && <p className="field-error">{form.error.fieldErrors['preferredChannels']!.join('. ')}</p>}
        </fieldset>
        <fieldset>
          <legend>Compliance</legend>
          <label className="inline">
            <input type="checkbox" name="complianceAcknowledged" checked={form.values.complianceAcknowledged} onChange={(e) => form.set('complianceAcknowledged', e.target.checked)} />
            {' '}We send only to people who agreed to hear from us, honour opt-outs (STOP), and follow the Data Protection Act and the NCA's rules on marketing messages.
          </label>
          {form.error?.fieldErrors['complianceAcknowledged'] && <p className="field-error">{form.error.fieldErrors['complianceAcknowledged']!.join('. ')}</p>}
        </fieldset>
        <button type="submit" disabled={form.submitting}>{form.submitting ? 'Saving…' : onboarded ? 'Save' : 'Finish onboarding'}</button>
        {saved && <Notice kind="success">{onboarded ? 'Your organization settings are saved.' : 'Saved.'}</Notice>}
      </form>
    </Page>
  );
}

type OnboardingDraft = {
  name: string; industry: string; businessPhone: string; businessEmail: string; timezone: string; defaultLanguage: string; website: string;
  monthlyVolume: string; preferredChannels: string[]; complianceAcknowledged: boolean;
};

function readDraft(key: string): OnboardingDraft | null {
  try {
    const raw = sessionStorage.getItem(key);
    const value = raw ? JSON.parse(raw) as OnboardingDraft : null;
    return value && typeof value.name === 'string' && Array.isArray(value.preferredChannels) ? value : null;
  } catch {
    return null;
  }
}
