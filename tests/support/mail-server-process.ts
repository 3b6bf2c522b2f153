// A real SMTP server on loopback for the browser tests, started by playwright.config.ts: the site
// sends its mail here, and the tests read it over HTTP (GET /mails?to=<address>).
import { createServer } from 'node:http';
import { startTestMailServer } from './mail-server.ts';

const smtpPort = Number(process.argv[2]);
const httpPort = Number(process.argv[3]);
const mail = await startTestMailServer(smtpPort);

createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (url.pathname === '/health') return response.end('ok');
  const to = url.searchParams.get('to') ?? '';
  response.setHeader('Content-Type', 'application/json');
  response.end(JSON.stringify(mail.mails.filter((message) => message.to.includes(to))));
}).listen(httpPort, '127.0.0.1');
