// Fills a database with chats and contact messages in the six languages, for the search bench
// (bench-search.ts) or to try the console's search on a realistic amount of text:
//   DATABASE_URL=postgres://… node scripts/bench/seed-search.ts 100000
//   DATA_DIR=data node scripts/bench/seed-search.ts 100000   (with the server stopped)
// Nine in ten messages are chat messages (nine per conversation), one in ten contact messages.
import { pathToFileURL } from 'node:url';
import type { Language } from '#common/languages.ts';
import { type Database, openDatabase } from '#server/platform/db/database.ts';

/** Words a support chat uses, per language; Thai is written without spaces between words. */
const WORDS: Record<Language, string[]> = {
  en: 'order delivery parcel invoice refund payment account password address shipping arrived broken late cancel change question help thanks today tomorrow week price discount return exchange size colour warranty support store opening hours courier tracking number email phone'.split(
    ' ',
  ),
  it: 'ordine consegna pacco fattura rimborso pagamento account password indirizzo spedizione arrivato rotto ritardo annullare cambiare domanda aiuto grazie oggi domani settimana prezzo sconto reso cambio taglia colore garanzia assistenza negozio orari corriere tracciamento numero'.split(
    ' ',
  ),
  fr: 'commande livraison colis facture remboursement paiement compte motdepasse adresse expédition arrivé cassé retard annuler changer question aide merci aujourd’hui demain semaine prix remise retour échange taille couleur garantie assistance magasin horaires transporteur suivi numéro'.split(
    ' ',
  ),
  de: 'Bestellung Lieferung Paket Rechnung Erstattung Zahlung Konto Passwort Adresse Versand angekommen kaputt verspätet stornieren ändern Frage Hilfe danke heute morgen Woche Preis Rabatt Rücksendung Umtausch Größe Farbe Garantie Kundendienst Laden Öffnungszeiten Kurier Sendungsverfolgung Nummer'.split(
    ' ',
  ),
  nl: 'bestelling levering pakket factuur terugbetaling betaling account wachtwoord adres verzending aangekomen kapot laat annuleren wijzigen vraag hulp bedankt vandaag morgen week prijs korting retour ruilen maat kleur garantie klantenservice winkel openingstijden koerier volgnummer nummer'.split(
    ' ',
  ),
  th: 'คำสั่งซื้อ การจัดส่ง พัสดุ ใบแจ้งหนี้ คืนเงิน ชำระเงิน บัญชี รหัสผ่าน ที่อยู่ จัดส่ง มาถึงแล้ว เสียหาย ล่าช้า ยกเลิก เปลี่ยน คำถาม ช่วยด้วย ขอบคุณ วันนี้ พรุ่งนี้ สัปดาห์ ราคา ส่วนลด คืนสินค้า แลกเปลี่ยน ขนาด สี การรับประกัน ฝ่ายบริการ ร้านค้า เวลาทำการ'.split(
    ' ',
  ),
};
const LANGUAGES = Object.keys(WORDS) as Language[];
const MESSAGES_PER_CONVERSATION = 9;
const BATCH = 2_000;

/** A small deterministic generator, so that two runs seed the same text. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function sentence(language: Language, random: () => number): string {
  const words = WORDS[language];
  const length = 6 + Math.floor(random() * 14);
  const picked = Array.from({ length }, () => words[Math.floor(random() * words.length)] as string);
  return language === 'th' ? picked.join('') : picked.join(' ');
}

/** Adds about `total` messages; returns how many chat and contact messages it added. */
export async function seedSearch(db: Database, total: number): Promise<{ chat: number; contact: number }> {
  const random = generator(total);
  const conversations = Math.ceil((total * 0.9) / MESSAGES_PER_CONVERSATION);
  const contact = total - conversations * MESSAGES_PER_CONVERSATION;
  const perBatch = Math.floor(BATCH / MESSAGES_PER_CONVERSATION);
  for (let start = 0; start < conversations; start += perBatch) {
    const count = Math.min(perBatch, conversations - start);
    const languages = Array.from({ length: count }, (_, i) => LANGUAGES[(start + i) % LANGUAGES.length] as Language);
    const ids = await db.query<{ id: number }>(
      `INSERT INTO chat_conversations (client_hash, language, page, visitor_email, status, created_at, last_message_at)
       SELECT 'seed', l, '/' || l, CASE WHEN n % 3 = 0 THEN 'visitor' || n || '@example.com' END, 'closed',
         statement_timestamp() - n * interval '7 minutes', statement_timestamp() - n * interval '7 minutes'
       FROM unnest($1::text[], $2::integer[]) AS s(l, n) RETURNING id`,
      [languages, languages.map((_, i) => start + i)],
    );
    const conversation: number[] = [];
    const author: string[] = [];
    const body: string[] = [];
    const clientId: string[] = [];
    ids.forEach(({ id }, i) => {
      for (let m = 0; m < MESSAGES_PER_CONVERSATION; m++) {
        conversation.push(Number(id));
        author.push(m % 2 === 0 ? 'visitor' : 'operator');
        body.push(sentence(languages[i] as Language, random));
        clientId.push(`seed-${id}-${m}-padding`);
      }
    });
    await db.query(
      `INSERT INTO chat_messages (conversation_id, author, body, client_message_id)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[])`,
      [conversation, author, body, clientId],
    );
  }
  for (let start = 0; start < contact; start += BATCH) {
    const count = Math.min(BATCH, contact - start);
    const languages = Array.from({ length: count }, (_, i) => LANGUAGES[(start + i) % LANGUAGES.length] as Language);
    await db.query(
      `INSERT INTO contact_messages (language, name, email, subject, body, status)
       SELECT l, 'Sender ' || n, 'sender' || n || '@example.com', 'question', b, 'read'
       FROM unnest($1::text[], $2::integer[], $3::text[]) AS s(l, n, b)`,
      [languages, languages.map((_, i) => start + i), languages.map((language) => sentence(language, random))],
    );
  }
  return { chat: conversations * MESSAGES_PER_CONVERSATION, contact };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const total = Number(process.argv[2] ?? 100_000);
  if (!Number.isInteger(total) || total < 10) throw new Error('Usage: seed-search.ts [number of messages]');
  const db = await openDatabase({ dataDir: process.env.DATA_DIR ?? 'data', databaseUrl: process.env.DATABASE_URL });
  try {
    console.log(await seedSearch(db, total));
  } finally {
    await db.close();
  }
}
