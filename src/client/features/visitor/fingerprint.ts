import type { FingerprintRecord } from '#common/fingerprint.ts';

/**
 * Reads the device fingerprint with FingerprintJS (fetched only now, after the first paint). Each
 * component goes to the server as a short hash of its value: enough to tell records apart, without
 * sending canvas images or font lists. `monitoring: false` keeps the library from calling home.
 */
export async function computeFingerprint(): Promise<FingerprintRecord> {
  const { load, murmurX64Hash128 } = await import('@fingerprintjs/fingerprintjs');
  const agent = await load({ monitoring: false });
  const result = await agent.get();
  const components: Record<string, string> = {};
  for (const [name, component] of Object.entries(result.components)) {
    const value = 'value' in component ? component.value : { error: String(component.error) };
    components[name] = murmurX64Hash128(JSON.stringify(value) ?? 'undefined');
  }
  return { visitorId: result.visitorId, components, userAgent: navigator.userAgent, timestamp: Date.now() };
}
