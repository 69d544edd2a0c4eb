import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { canGrantRole, MEMBER_ROLES, PERMISSIONS, roleAllows } from '../../core/domain/roles.ts';

const mark = (allowed: boolean) => (allowed ? 'yes' : '-');
const header = (first: string) => [`| ${first} | ${MEMBER_ROLES.join(' | ')} |`, `|---|${MEMBER_ROLES.map(() => '---|').join('')}`];

/** The permission table as docs/permissions.md must show it, rendered from core/domain/roles.ts. */
function permissionTable(): string {
  const rows = PERMISSIONS.map((permission) => `| \`${permission}\` | ${MEMBER_ROLES.map((role) => mark(roleAllows(role, permission))).join(' | ')} |`);
  return [...header('Permission'), ...rows].join('\n');
}

/** Which role may grant which role on invite (canGrantRole), rows = inviter. */
function grantTable(): string {
  const rows = MEMBER_ROLES.map((inviter) => `| ${inviter} | ${MEMBER_ROLES.map((granted) => mark(canGrantRole(inviter, granted))).join(' | ')} |`);
  return [...header('Inviter (row) may grant (column)'), ...rows].join('\n');
}

describe('docs/permissions.md', () => {
  let doc: string;
  before(async () => { doc = await readFile(path.resolve(import.meta.dirname, '../../docs/permissions.md'), 'utf8'); });

  it('shows the permission table exactly as core/domain/roles.ts defines it', () => {
    expect(doc.includes(permissionTable()), `docs/permissions.md is out of date; paste this table:\n\n${permissionTable()}\n`).to.equal(true);
  });

  it('shows which role may grant which role exactly as canGrantRole decides', () => {
    expect(doc.includes(grantTable()), `docs/permissions.md is out of date; paste this table:\n\n${grantTable()}\n`).to.equal(true);
  });

  it('documents every auth error code the API can answer', () => {
    for (const code of ['UNAUTHORIZED', 'ORGANIZATION_REQUIRED', 'FORBIDDEN', 'NOT_FOUND']) expect(doc).to.include(`\`${code}\``);
  });
});
