import { SqlProviderRepository } from '../../adapters/postgres/sql-provider-repository.ts';
import { AesGcmCredentialCipher } from '../../adapters/security/aes-gcm-credential-cipher.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { availableDatabaseKinds } from '../support/test-database.ts';
import { describeProviderRepositoryContract } from './provider-repository.contract.ts';
import { MikroOrmStorage } from '../../adapters/postgres/mikro-orm-storage.ts';
import { seedOrganization } from './contract-fixtures.ts';

// The one adapter of this port is SQL (providers are platform configuration read at start and on change): PGlite and PostgreSQL.
for (const kind of await availableDatabaseKinds()) {
  describeProviderRepositoryContract(kind, async () => new SqlProviderRepository((await sharedInfrastructure(kind)).database, new AesGcmCredentialCipher('0'.repeat(64)) /* the test configuration's key */, new UuidV7IdGenerator()),
    async () => (await seedOrganization(new MikroOrmStorage((await sharedInfrastructure(kind)).database, new UuidV7IdGenerator(), (await sharedInfrastructure(kind)).boss))).id);
}
