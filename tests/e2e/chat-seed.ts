// Before a chat test site starts (playwright.config.ts): its embedded database gets an operator
// with a session the tests sign in with, so that each chat test starts signed in without a trip
// through the sign-in form (the console tests take that trip, with staff made by an admin).
import { openDatabase } from '#server/platform/db/database.ts';
import { seedStaff } from '#tests/support/seeded-staff.ts';
import { CHAT_ADMIN, CHAT_OPERATOR } from './settings.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('Usage: node tests/e2e/chat-seed.ts <data dir>');
const db = await openDatabase({ dataDir });
await seedStaff(db, CHAT_OPERATOR, 'operator');
await seedStaff(db, CHAT_ADMIN, 'admin');
await db.close();
