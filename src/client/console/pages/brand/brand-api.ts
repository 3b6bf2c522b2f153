import { consoleCall } from '#client/console/api.ts';
import { BRAND_API, type BrandAnswer, type BrandChange } from '#common/site-brand.ts';

/** Longer than a full render of the site takes on a busy instance: the answer waits for it. */
const TIMEOUT_MS = 60_000;

const brandCall = (path: string, body: unknown, method: 'PUT' | 'DELETE') =>
  consoleCall<BrandAnswer>(path, body, { method, timeoutMs: TIMEOUT_MS, tooLarge: 'LOGO_TOO_LARGE' });

export const readBrand = () => consoleCall<BrandAnswer>(BRAND_API.brand);

export const changeBrand = (change: BrandChange) => brandCall(BRAND_API.brand, change, 'PUT');

/** The logo file as chosen; a file the browser has no type for is named by its extension. */
export function sendLogo(file: File) {
  const type = file.type || (/\.svg$/i.test(file.name) ? 'image/svg+xml' : 'image/png');
  return brandCall(BRAND_API.logo, new Blob([file], { type }), 'PUT');
}

export const removeLogo = () => brandCall(BRAND_API.logo, {}, 'DELETE');
