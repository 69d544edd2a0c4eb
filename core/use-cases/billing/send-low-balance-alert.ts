import { pesewasToGhs, type Pesewas } from '../../domain/money.ts';
import type { EmailSender } from '../../ports/email-sender.ts';
import type { Storage } from '../../ports/storage.ts';

/**
 * The worker's low-balance job: emails every owner of the organization that a debit took the wallet
 * under the threshold. The send path enqueues one job per crossing (from above to below the threshold,
 * seen in the debit's balanceAfter under the wallet lock), so an owner hears once per crossing.
 */
export class SendLowBalanceAlert {
  readonly #deps: { storage: Storage; email: EmailSender; threshold: Pesewas; publicUrl: string };
  constructor(deps: { storage: Storage; email: EmailSender; threshold: Pesewas; publicUrl: string }) { this.#deps = deps; }

  /** Returns the number of emails sent (0 when the organization is gone or has no owner). */
  async execute(organizationId: string, balanceAfter: Pesewas): Promise<number> {
    const { storage, email, threshold, publicUrl } = this.#deps;
    const organization = await storage.organizations.findById(organizationId);
    if (!organization) return 0;
    const owners = (await storage.memberships.listByOrganization(organizationId, 200)).filter((m) => m.role === 'TENANT_OWNER');
    let sent = 0;
    for (const owner of owners) {
      const user = await storage.users.findById(owner.userId);
      if (!user) continue;
      await email.send({
        to: user.email,
        subject: `Low wallet balance: GHS ${pesewasToGhs(balanceAfter).toFixed(2)} left for ${organization.name}`,
        text: [
          `Hello ${user.firstName},`, '',
          `The wallet of ${organization.name} fell to GHS ${pesewasToGhs(balanceAfter).toFixed(2)}, under your alert threshold of GHS ${pesewasToGhs(threshold).toFixed(2)}.`,
          'Messages stop going out when the balance cannot cover them.', '',
          `Top up from the dashboard: ${publicUrl}`,
        ].join('\n'),
      });
      sent += 1;
    }
    return sent;
  }
}
