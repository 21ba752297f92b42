// Each place's settings (a Discord server, a Slack workspace) as one JSON document, in SQLite or
// PostgreSQL. The store keeps what it is handed; what the settings mean is src/settings'.
import { sql } from 'kysely';
import { all, run, value, type Sql } from './sql.ts';

export class SettingsStore {
  constructor(private readonly sql: Sql) {}

  /** The place's stored settings (JSON), undefined when it set none. */
  get(platform: string, place: string): Promise<string | undefined> {
    return value<string>(this.sql.db, sql`SELECT settings FROM place_settings WHERE platform = ${platform} AND place = ${place}`);
  }

  /**
   * Rewrites a place's settings from what they were, holding them against another writer (an
   * admin in another process) until the new ones are stored. Returns what was stored.
   */
  update(platform: string, place: string, at: number, change: (json: string | undefined) => string): Promise<string> {
    return this.sql.transaction(async (tx) => {
      await run(tx, sql`INSERT INTO place_settings (platform, place, settings, updated_at) VALUES (${platform}, ${place}, '{}', ${at}) ON CONFLICT DO NOTHING`);
      const before = await value<string>(tx, sql`SELECT settings FROM place_settings WHERE platform = ${platform} AND place = ${place}${this.sql.dialect.forUpdate}`);
      const after = change(before);
      await run(tx, sql`UPDATE place_settings SET settings = ${after}, updated_at = ${at} WHERE platform = ${platform} AND place = ${place}`);
      return after;
    });
  }

  /** Every place on a platform that stored settings, with them. */
  async places(platform: string): Promise<{ place: string; settings: string }[]> {
    return all<{ place: string; settings: string }>(this.sql.db, sql`SELECT place, settings FROM place_settings WHERE platform = ${platform} ORDER BY place`);
  }
}
