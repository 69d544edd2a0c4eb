import type { Container } from 'inversify';
import { CreateApiKey } from '../../../core/use-cases/api-keys/create-api-key.ts';
import { ListApiKeys } from '../../../core/use-cases/api-keys/list-api-keys.ts';
import { RevokeApiKey } from '../../../core/use-cases/api-keys/revoke-api-key.ts';
import { UpdateApiKey } from '../../../core/use-cases/api-keys/update-api-key.ts';
import { INFRA } from '../../tokens.ts';
import { apiKeyRoutes } from '../routes/api-key-routes.ts';
import { API } from '../tokens.ts';

export function bindApiKeysModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (storage, secrets, ids, clock, apiKeys) => apiKeyRoutes({
      createApiKey: new CreateApiKey({ storage, secrets, ids, clock }),
      listApiKeys: new ListApiKeys({ storage, clock }),
      revokeApiKey: new RevokeApiKey({ storage, apiKeys, clock }),
      updateApiKey: new UpdateApiKey({ storage, apiKeys, clock }),
    }),
    [INFRA.storage, INFRA.secrets, INFRA.ids, INFRA.clock, INFRA.apiKeyLookup]).inSingletonScope();
}
