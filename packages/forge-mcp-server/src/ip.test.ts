import { isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ipFamily } from './ip.js';

describe('ipFamily', () => {
  it("answers as node:net's isIP for addresses, names and near misses", () => {
    const texts = [
      '127.0.0.1',
      '10.0.0.256',
      '1.2.3',
      '01.2.3.4',
      '::1',
      '::',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      'fe80::1%eth0',
      '1:2:3:4:5:6:7:8:9',
      '[::1]',
      'localhost',
      'gitlab.example.com',
      '',
      'abcd',
      '1.2.3.4:80',
    ];
    for (const t of texts) expect([t, ipFamily(t)]).toEqual([t, isIP(t)]);
  });
});
