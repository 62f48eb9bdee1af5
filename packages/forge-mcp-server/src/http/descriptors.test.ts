import { describe, expect, it } from 'vitest';
import { hardDescriptorLimit, slotsUnder } from './descriptors.js';

const limits = (soft: string, hard: string) =>
  `Limit                     Soft Limit           Hard Limit           Units     \n` +
  `Max cpu time              unlimited            unlimited            seconds   \n` +
  `Max open files            ${soft.padEnd(20)} ${hard.padEnd(20)} files     \n`;

describe('call and session slots follow the hard descriptor limit', () => {
  it('reads the hard limit, not the soft one', () => {
    expect(hardDescriptorLimit(limits('1024', '4096'))).toBe(4096);
  });

  it('counts no limit as 8192 and an unreadable one as 1024', () => {
    expect(hardDescriptorLimit(limits('unlimited', 'unlimited'))).toBe(8192);
    expect(hardDescriptorLimit('Max cpu time  unlimited  unlimited  seconds\n')).toBe(1024);
    expect(hardDescriptorLimit(limits('0', '0'))).toBe(1024);
  });

  it('gives 192 calls and 96 sessions under 1024, the same share of other limits, at most 8192 counted', () => {
    expect(slotsUnder(1024)).toEqual({ calls: 192, sessions: 96 });
    expect(slotsUnder(512)).toEqual({ calls: 96, sessions: 48 });
    expect(slotsUnder(65536)).toEqual({ calls: 1536, sessions: 768 });
    expect(slotsUnder(1048576)).toEqual(slotsUnder(8192));
    expect(slotsUnder(4)).toEqual({ calls: 1, sessions: 1 });
  });
});
