import type { Container } from 'inversify';
import { GetCurrentOrganization } from '../../../core/use-cases/organizations/get-current-organization.ts';
import { InviteMember } from '../../../core/use-cases/organizations/invite-member.ts';
import { ListMembers } from '../../../core/use-cases/organizations/list-members.ts';
import { UpdateOrganization } from '../../../core/use-cases/organizations/update-organization.ts';
import { INFRA } from '../../tokens.ts';
import { organizationRoutes } from '../routes/organization-routes.ts';
import { API } from '../tokens.ts';

export function bindOrganizationsModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (storage, email, ids, clock, logger) => organizationRoutes({
      getCurrentOrganization: new GetCurrentOrganization({ storage }),
      updateOrganization: new UpdateOrganization({ storage, clock }),
      listMembers: new ListMembers({ storage }),
      inviteMember: new InviteMember({
        storage, email, ids, clock, onEmailError: (error) => logger.warn({ err: error }, 'invitation email failed; the member was added'),
      }),
    }),
    [INFRA.storage, INFRA.email, INFRA.ids, INFRA.clock, INFRA.logger]).inSingletonScope();
}
