// The favicon drawn from an uploaded logo: the logo centred on a transparent square, the size
// browsers show a tab's icon at on a dense screen.
const FAVICON_SIZE = 64;

export async function faviconFrom(logo: { type: string; body: Uint8Array; width: number; height: number }) {
  const { renderAsync } = await import('@resvg/resvg-js');
  const href =
    logo.type === 'image/png'
      ? `data:image/png;base64,${Buffer.from(logo.body).toString('base64')}`
      : `data:image/svg+xml;base64,${Buffer.from(logo.body).toString('base64')}`;
  // The logo fits the square whole, keeping its proportions (a wide logo gets space above and below).
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${FAVICON_SIZE}" height="${FAVICON_SIZE}"><image href="${href}" width="${FAVICON_SIZE}" height="${FAVICON_SIZE}" preserveAspectRatio="xMidYMid meet"/></svg>`;
  return (await renderAsync(svg, { fitTo: { mode: 'width', value: FAVICON_SIZE } })).asPng();
}
