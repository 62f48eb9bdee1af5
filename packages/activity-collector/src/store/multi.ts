import type { SweepSummary } from '../collect.js';
import type { RateState } from '../http.js';
import type { Store } from './types.js';

type Writes = Exclude<
  keyof Store,
  | 'kind'
  | 'getEtag'
  | 'getState'
  | 'knownCommits'
  | 'starDays'
  | 'collectionStatus'
  | 'init'
  | 'close'
  | 'observeSweep'
>;

/**
 * Writes to every configured store; reads (ETags, state, known commits, star days) come from the first one,
 * the persistent store when there is one.
 */
export class MultiStore implements Store {
  readonly kind: string;
  constructor(readonly stores: Store[]) {
    if (stores.length === 0) throw new Error('no store');
    this.kind = stores.map((s) => s.kind).join('+');
  }
  private get primary() {
    return this.stores[0];
  }
  private async all<K extends Writes>(method: K, ...args: Parameters<Store[K]>): Promise<number> {
    let n = 0;
    for (const s of this.stores) {
      const r = await (s[method] as (...a: unknown[]) => Promise<number | void>)(...args);
      if (s === this.primary && typeof r === 'number') n = r;
    }
    return n;
  }
  async init() {
    for (const s of this.stores) await s.init();
  }
  async close() {
    for (const s of this.stores) await s.close();
  }
  writeRepository: Store['writeRepository'] = (...a) => this.all('writeRepository', ...a);
  writeStars: Store['writeStars'] = (...a) => this.all('writeStars', ...a);
  writeStarDays: Store['writeStarDays'] = (...a) => this.all('writeStarDays', ...a);
  writeSecurityFeatures: Store['writeSecurityFeatures'] = (...a) => this.all('writeSecurityFeatures', ...a);
  writeParticipation: Store['writeParticipation'] = (...a) => this.all('writeParticipation', ...a);
  writePunchCard: Store['writePunchCard'] = (...a) => this.all('writePunchCard', ...a);
  writeTraffic: Store['writeTraffic'] = (...a) => this.all('writeTraffic', ...a);
  writePackages: Store['writePackages'] = (...a) => this.all('writePackages', ...a);
  writeCommits: Store['writeCommits'] = (...a) => this.all('writeCommits', ...a);
  writeEvents: Store['writeEvents'] = (...a) => this.all('writeEvents', ...a);
  writeBillingUsage: Store['writeBillingUsage'] = (...a) => this.all('writeBillingUsage', ...a);
  writeStatus: Store['writeStatus'] = async (...a) => {
    await this.all('writeStatus', ...a);
  };
  writeSweep: Store['writeSweep'] = async (...a) => {
    await this.all('writeSweep', ...a);
  };
  setState: Store['setState'] = async (...a) => {
    await this.all('setState', ...a);
  };
  putEtag: Store['putEtag'] = async (...a) => {
    await this.all('putEtag', ...a);
  };
  getEtag: Store['getEtag'] = (url) => this.primary.getEtag(url);
  getState: Store['getState'] = (k) => this.primary.getState(k);
  knownCommits: Store['knownCommits'] = (r) => this.primary.knownCommits(r);
  starDays: Store['starDays'] = (r) => this.primary.starDays(r);
  async observeSweep(s: SweepSummary, rate: Record<string, RateState>) {
    for (const st of this.stores) await st.observeSweep?.(s, rate);
  }
}
