import { ConfigError, loadBackendConfig } from './config.js';
import { openDb } from './db.js';
import { databaseProblem } from './dbProblem.js';

/** `npm run db:migrate` (latest) and `npm run db:rollback` (the last batch). */
async function main(): Promise<void> {
  const action = process.argv[2] ?? 'latest';
  if (action !== 'latest' && action !== 'rollback') {
    console.error(`Unknown action ${action}: use latest or rollback`);
    process.exit(2);
  }
  const config = loadBackendConfig();
  const db = openDb(config.databaseUrl);
  try {
    if (action === 'latest') {
      const [batch, names] = (await db.migrate.latest()) as [number, string[]];
      console.log(names.length ? `Batch ${batch}: ${names.join(', ')}` : 'Already up to date.');
    } else {
      const [batch, names] = (await db.migrate.rollback()) as [number, string[]];
      console.log(names.length ? `Rolled back batch ${batch}: ${names.join(', ')}` : 'Nothing to roll back.');
    }
  } finally {
    await db.destroy();
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    for (const line of err.problems) console.error(line);
  } else {
    let url = '';
    try {
      url = loadBackendConfig().databaseUrl;
    } catch {
      // the configuration was read once already; a second failure changes nothing
    }
    console.error(databaseProblem(err, url) ?? err);
  }
  process.exit(1);
});
