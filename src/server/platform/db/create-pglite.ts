// Creates a new embedded database in the folder given as argument, then exits: run as a child
// process by pglite-driver.ts, so that the memory PGlite takes to create one (a second instance of
// PostgreSQL and initdb, some 170 MB it keeps after closing them) goes with this process.
import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

const db = await PGlite.create({ fs: new NodeFS(process.argv[2] as string) });
await db.close();
