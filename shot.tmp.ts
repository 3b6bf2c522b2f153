import { chromium } from '@playwright/test';

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const logs: string[] = [];
await page.addInitScript(() =>
  window.addEventListener('error', (e) => console.log('CAUSE', String(e.error?.cause), e.error?.cause?.stack)),
);
page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`));
page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
page.on('request', (r) => logs.push(`req: ${r.url()}`));
await page.goto(process.argv[2] ?? 'http://localhost:3111/en');
await page.waitForTimeout(1500);
await page.screenshot({ path: '/tmp/shot.png', fullPage: true });
if (process.argv[3]) {
  await page.click(process.argv[3]);
  await page.waitForTimeout(1000);
  logs.push(
    'URL ' + page.url() + ' lang=' + (await page.getAttribute('html', 'lang')) + ' title=' + (await page.title()),
  );
  await page.screenshot({ path: '/tmp/shot2.png', fullPage: true });
}
console.log(logs.join('\n'));
await browser.close();
