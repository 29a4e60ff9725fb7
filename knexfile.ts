import { loadBackendConfig } from './backend/config.js';
import { knexConfig } from './backend/db.js';

// For the knex CLI; `npm run db:migrate` uses backend/migrate.ts with the same configuration.
export default knexConfig(loadBackendConfig().databaseUrl);
