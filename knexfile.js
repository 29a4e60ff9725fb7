// For the knex CLI (`npx knex migrate:status`, `migrate:latest`, `migrate:rollback`...): the same
// configuration and migrations as `npm run db:migrate` (backend/migrate.ts). The knex CLI loads
// this file with plain node, so it registers tsx's loader first to read the TypeScript sources
// (a checkout has tsx as a dev dependency; the packed package runs `cichat` / dist/ instead).
import { register } from 'tsx/esm/api';

register();
const { loadBackendConfig } = await import('./backend/config.ts');
const { knexConfig } = await import('./backend/db.ts');

export default knexConfig(loadBackendConfig().databaseUrl);
