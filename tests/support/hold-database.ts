// Opens the database of the DATA_DIR given as argument and keeps it open until killed, saying
// "ready" once it is: another process, for the tests of what a second one on the same folder does.
import { openDatabase } from '#server/platform/db/database.ts';

const db = await openDatabase({ dataDir: process.argv[2] as string });
await db.query("INSERT INTO jobs (kind, unique_key) VALUES ('test.held', 'held')");
process.stdout.write('ready\n');
setInterval(() => {}, 60_000);
