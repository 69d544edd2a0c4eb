import { expect } from 'chai';
import {
  CHANNELS, DELIVERY_STATUSES, HIGH_RISK_CATEGORIES, TEMPLATE_CATEGORIES, TEMPLATE_CHANNELS, needsApproval,
} from '../../../core/domain/channel.ts';

describe('domain: channels, statuses and template categories', () => {
  it('lists the five delivery channels of the spec', () => {
    expect(CHANNELS).to.deep.equal(['SMS', 'WHATSAPP', 'EMAIL', 'PUSH', 'VOICE']);
  });

  it('lets templates also target IN_APP, which is not a delivery channel', () => {
    expect(TEMPLATE_CHANNELS).to.include.members([...CHANNELS, 'IN_APP']);
    expect(TEMPLATE_CHANNELS).to.have.length(6);
    expect(CHANNELS).not.to.include('IN_APP');
  });

  it('includes REJECTED among the delivery statuses for fraud-blocked sends', () => {
    expect(DELIVERY_STATUSES).to.deep.equal(['QUEUED', 'SENT', 'DELIVERED', 'FAILED', 'PENDING', 'REJECTED']);
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
