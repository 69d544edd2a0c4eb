import { expect } from 'chai';
import {
  CHANNELS, DELIVERY_STATUSES, HIGH_RISK_CATEGORIES, TEMPLATE_CATEGORIES, TEMPLATE_CHANNELS, VENDOR_CHANNELS, needsApproval,
} from '../../../core/domain/channel.ts';

describe('domain: channels, statuses and template categories', () => {
  it('lists the five delivery channels of the spec plus IN_APP, which the inbox delivers itself (docs/inbox.md)', () => {
    expect(CHANNELS).to.deep.equal(['SMS', 'WHATSAPP', 'EMAIL', 'PUSH', 'VOICE', 'IN_APP']);
    expect(VENDOR_CHANNELS).to.deep.equal(['SMS', 'WHATSAPP', 'EMAIL', 'PUSH', 'VOICE']);
  });

  it('lets templates target every channel, IN_APP included', () => {
    expect(TEMPLATE_CHANNELS).to.deep.equal([...CHANNELS]);
    expect(TEMPLATE_CHANNELS).to.have.length(6);
  });

  it('includes REJECTED among the delivery statuses for fraud-blocked sends', () => {
    expect(DELIVERY_STATUSES).to.deep.equal(['QUEUED', 'SENT', 'DELIVERED', 'FAILED', 'PENDING', 'REJECTED', 'SCHEDULED', 'CANCELLED']);
  });

  it('lists the ten template categories of the spec', () => {
    expect(TEMPLATE_CATEGORIES).to.deep.equal(
      ['TRANSACTIONAL', 'MARKETING', 'OTP', 'REMINDER', 'ALERT', 'HEALTHCARE', 'INSURANCE', 'LOGISTICS', 'FINTECH', 'ECOMMERCE']);
  });

  it('requires approval for marketing, fintech, healthcare and insurance templates', () => {
    for (const category of ['MARKETING', 'FINTECH', 'HEALTHCARE', 'INSURANCE'] as const) {
      expect(needsApproval(category), category).to.equal(true);
    }
    expect(HIGH_RISK_CATEGORIES).to.have.length(4);
  });

  it('lets the other categories through without approval', () => {
    const lowRisk = TEMPLATE_CATEGORIES.filter((c) => !HIGH_RISK_CATEGORIES.includes(c));
    expect(lowRisk).to.deep.equal(['TRANSACTIONAL', 'OTP', 'REMINDER', 'ALERT', 'LOGISTICS', 'ECOMMERCE']);
    for (const category of lowRisk) expect(needsApproval(category), category).to.equal(false);
  });
});
