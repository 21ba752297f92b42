// The facts that change which fix works, as one short key: the same entry on a 6 GB Windows card
// and a 24 GB Linux one is not the same problem. Each dimension is data; an unknown fact is '?'.
import type { Facts } from '../classify/facts/types.ts';

/** VRAM tiers by the card's size: below 8 GB everything is tight, 16 GB and more fits most models. */
const VRAM_TIERS: { below: number; name: string }[] = [
  { below: 8, name: '<8' },
  { below: 16, name: '8-16' },
  { below: 24, name: '16-24' },
  { below: Infinity, name: '24+' },
];

const DIMENSIONS: { key: string; of: (f: Facts) => string | undefined }[] = [
  { key: 'vram', of: (f) => (f.vramGb === undefined ? undefined : VRAM_TIERS.find((t) => f.vramGb! < t.below)!.name) },
  { key: 'os', of: (f) => f.os },
  // The backend names the vendor too (cuda, rocm, zluda...); a vendor alone is the next best thing.
  { key: 'backend', of: (f) => f.backend ?? f.gpuVendor },
  { key: 'dynvram', of: (f) => (f.dynamicVram === undefined ? undefined : f.dynamicVram ? 'on' : 'off') },
];

/** "vram=8-16 os=windows backend=cuda dynvram=?": the setup a case's outcomes are counted under. */
export function learningContext(facts: Pick<Facts, 'vramGb' | 'os' | 'backend' | 'gpuVendor' | 'dynamicVram'>): string {
  return DIMENSIONS.map((d) => `${d.key}=${d.of(facts as Facts) ?? '?'}`).join(' ');
}
