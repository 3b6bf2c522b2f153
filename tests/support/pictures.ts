import sharp from 'sharp';

/**
 * A photograph as a test uploads one: a scene of soft shapes under grain, so that it compresses as
 * a photo does (a flat colour would make every file a few hundred bytes). JPEG unless told.
 */
export async function testPhoto(
  options: {
    width?: number;
    height?: number;
    format?: 'jpeg' | 'png' | 'webp';
    /** EXIF fields to write in, as a camera would (IFD0: Make, Model...; IFD3: GPS). */
    exif?: Record<string, Record<string, string>>;
    /** EXIF orientation (6: taken with the phone turned, shown upright only when applied). */
    orientation?: number;
  } = {},
): Promise<Uint8Array> {
  const { width = 2400, height = 1600, format = 'jpeg' } = options;
  const scene = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <defs><linearGradient id="sky" x2="0" y2="1"><stop offset="0" stop-color="#6aa9e0"/><stop offset="1" stop-color="#f2d7a6"/></linearGradient></defs>
      <rect width="100%" height="100%" fill="url(#sky)"/>
      <ellipse cx="${width * 0.3}" cy="${height * 0.85}" rx="${width * 0.5}" ry="${height * 0.3}" fill="#3e7d3a"/>
      <ellipse cx="${width * 0.8}" cy="${height * 0.9}" rx="${width * 0.4}" ry="${height * 0.25}" fill="#2f6330"/>
      <circle cx="${width * 0.75}" cy="${height * 0.25}" r="${height * 0.1}" fill="#fff6d5"/>
      <rect x="${width * 0.45}" y="${height * 0.45}" width="${width * 0.12}" height="${height * 0.3}" fill="#a8553a"/>
    </svg>`,
  );
  const grain = await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 14 } },
  })
    .png()
    .toBuffer();
  let image = sharp(scene)
    .composite([{ input: grain, blend: 'soft-light' }])
    .blur(0.8);
  if (options.exif || options.orientation) {
    image = sharp(await image.png().toBuffer()).withMetadata({
      ...(options.orientation ? { orientation: options.orientation } : {}),
      ...(options.exif ? { exif: options.exif } : {}),
    });
  }
  return new Uint8Array(await image.toFormat(format, format === 'jpeg' ? { quality: 92 } : {}).toBuffer());
}
