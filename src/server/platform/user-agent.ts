/**
 * What the analytics breakdowns and the account's session list show of a user agent: a device class,
 * a browser and a system, never the string itself.
 */
export interface AgentSummary {
  device: 'desktop' | 'mobile' | 'tablet' | 'bot' | null;
  browser: string | null;
  os: string | null;
}

/** Tried in order: a browser built on another names it too (Edge says Chrome and Safari, Chrome says Safari). */
const BROWSERS: [RegExp, string][] = [
  [/\bEdgA?\/|\bEdgiOS\//, 'Edge'],
  [/\bOPR\/|\bOPiOS\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bYaBrowser\//, 'Yandex'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\b(Headless)?Chrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\/|\bAppleWebKit\/.*\bMobile\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\b(iPhone|iPod)\b|\biOS\b/, 'iOS'],
  [/\biPad\b/, 'iPadOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

const BOT = /bot\b|crawler|spider|crawling|HeadlessChrome|Lighthouse|curl\/|wget\//i;
const TABLET = /\biPad\b|\bTablet\b|Android(?!.*\bMobile\b)/;
const MOBILE = /\bMobi|\biPhone\b|\biPod\b|\bAndroid\b/;

/**
 * The device class, browser and system a user agent names, by the few rules above (decision 180):
 * enough for a breakdown, and nothing to keep up beyond a new browser's name now and then.
 */
export function summarizeAgent(agent: string | undefined): AgentSummary {
  if (!agent) return { device: null, browser: null, os: null };
  const first = (rules: [RegExp, string][]) => rules.find(([rule]) => rule.test(agent))?.[1] ?? null;
  const device = BOT.test(agent) ? 'bot' : TABLET.test(agent) ? 'tablet' : MOBILE.test(agent) ? 'mobile' : 'desktop';
  return { device, browser: first(BROWSERS), os: first(SYSTEMS) };
}
