// The one door to places' settings: what holds in a place (its admins' choices over the bot's
// defaults), and changes to it. Read on every event that may start something, so it is cached;
// a change made in another process (a shard, another machine) holds here within CACHE_MS.
import type { SettingsStore } from '../store/settings.ts';
import { applyChange, effective, readStored, type Change, type Defaults, type PlaceSettings, type StoredSettings } from './place.ts';

const CACHE_MS = 30_000;

export class Settings {
  private readonly cache = new Map<string, { at: number; stored: Promise<StoredSettings> }>();
  private readonly defaults = new Map<string, Defaults>();

  constructor(
    private readonly store: SettingsStore,
    /** Every platform's: COMFYOOM_LANGUAGE. */
    private readonly common: Pick<Defaults, 'language'> = {},
    private readonly now: () => number = Date.now,
  ) {}

  /** A platform's defaults from its environment, told by its face as it starts. */
  setDefaults(platform: string, d: Defaults): void {
    this.defaults.set(platform, d);
  }

  defaultsOf(platform: string): Defaults {
    return { ...this.common, ...this.defaults.get(platform) };
  }

  /** What holds in a place; outside any (a DM), the bot's defaults. */
  async of(platform: string, place: string | undefined): Promise<PlaceSettings> {
    return effective(place ? await this.stored(platform, place) : {}, this.defaultsOf(platform));
  }

  /** The place's settings after an admin's change. */
  async change(platform: string, place: string, change: Change): Promise<PlaceSettings> {
    const d = this.defaultsOf(platform);
    const json = await this.store.update(platform, place, this.now(), (before) => JSON.stringify(applyChange(readStored(before), change, d)));
    const stored = readStored(json);
    this.cache.set(key(platform, place), { at: this.now(), stored: Promise.resolve(stored) });
    return effective(stored, d);
  }

  /** Every place on a platform that stored settings, with what holds there. */
  async places(platform: string): Promise<{ place: string; settings: PlaceSettings }[]> {
    const d = this.defaultsOf(platform);
    return (await this.store.places(platform)).map((r) => ({ place: r.place, settings: effective(readStored(r.settings), d) }));
  }

  private stored(platform: string, place: string): Promise<StoredSettings> {
    const k = key(platform, place);
    const hit = this.cache.get(k);
    if (hit && this.now() - hit.at < CACHE_MS) return hit.stored;
    const stored = this.store.get(platform, place).then(readStored);
    this.cache.set(k, { at: this.now(), stored });
    // A failed read is not remembered: the next event asks the store again.
    stored.catch(() => this.cache.get(k)?.stored === stored && this.cache.delete(k));
    return stored;
  }
}

const key = (platform: string, place: string) => `${platform}\u0000${place}`;
